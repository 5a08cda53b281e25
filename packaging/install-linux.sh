#!/usr/bin/env bash
# Install (or upgrade, or remove) the Acervo bundle for the current user. No root needed.
#
#   packaging/install-linux.sh                 install/upgrade from dist/acervo (make package)
#   packaging/install-linux.sh --bundle DIR    install from another unpacked bundle
#   packaging/install-linux.sh --uninstall     remove the app; your data stays
#
# Where things go (XDG base directories; XDG_DATA_HOME defaults to ~/.local/share):
#   $XDG_DATA_HOME/acervo/                     the bundle (executable `acervo` + _internal/)
#   $XDG_DATA_HOME/applications/acervo.desktop the menu entry
#   $XDG_DATA_HOME/icons/hicolor/{scalable,256x256}/apps/acervo.{svg,png}
#   ~/.local/bin/acervo                        a symlink for the command line
#
# Your data is NOT in the bundle folder: the library, memories and settings live in the
# platform's user dirs (~/.local/share/Acervo, ~/.config/Acervo, ~/.cache/Acervo,
# ~/.local/state/Acervo/log — note the capital A) and are never touched by this script.
# Installing a newer bundle over an older one keeps them; the app upgrades their schemas
# on first start (desktop_app/migrations.py). Re-running the script is safe (idempotent):
# the new bundle is copied next to the old one and swapped in with two renames.
set -euo pipefail

APP_ID="acervo"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}"
INSTALL_DIR="$DATA_HOME/$APP_ID"
MARKER=".acervo-install"
DESKTOP_FILE="$DATA_HOME/applications/$APP_ID.desktop"
ICON_SVG="$DATA_HOME/icons/hicolor/scalable/apps/$APP_ID.svg"
ICON_PNG="$DATA_HOME/icons/hicolor/256x256/apps/$APP_ID.png"
BIN_LINK="$HOME/.local/bin/$APP_ID"
if [ "$(basename "$(dirname "$SCRIPT_DIR")")" = "_internal" ]; then
    BUNDLE="$SCRIPT_DIR/../.."  # run from inside a bundle: _internal/packaging/install-linux.sh
else
    BUNDLE="$SCRIPT_DIR/../dist/$APP_ID"  # run from a checkout after `make package`
fi

usage() { sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; }

refresh_caches() {
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database -q "$DATA_HOME/applications" || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 \
            && [ -f "$DATA_HOME/icons/hicolor/index.theme" ]; then
        gtk-update-icon-cache -q -f -t "$DATA_HOME/icons/hicolor" || true
    fi
}

# Escape a string for the replacement side of a sed s||| command.
sed_escape() { printf '%s' "$1" | sed -e 's/[\\|&]/\\&/g'; }

# Quote a path for the Exec= key of a desktop entry (spec: double quotes, escape \ " ` $).
desktop_quote() {
    local escaped
    escaped="$(printf '%s' "$1" | sed -e 's/[\\"`$]/\\&/g')"
    printf '"%s"' "$escaped"
}

uninstall() {
    rm -f "$DESKTOP_FILE" "$ICON_SVG" "$ICON_PNG"
    if [ -L "$BIN_LINK" ] && [[ "$(readlink "$BIN_LINK")" == "$INSTALL_DIR/"* ]]; then
        rm -f "$BIN_LINK"
    fi
    if [ -d "$INSTALL_DIR" ]; then
        if [ ! -f "$INSTALL_DIR/$MARKER" ]; then
            echo "not removing $INSTALL_DIR: it was not created by this script" >&2
            exit 1
        fi
        rm -rf "$INSTALL_DIR"
    fi
    rm -rf "$DATA_HOME/.$APP_ID.new-"* "$DATA_HOME/.$APP_ID.old-"*
    refresh_caches
    echo "Acervo removed. Your data was kept; to erase it too, delete ~/.local/share/Acervo,"
    echo "~/.config/Acervo, ~/.cache/Acervo and ~/.local/state/Acervo (or your ACERVO_HOME)."
}

install() {
    local exe="$BUNDLE/$APP_ID"
    if [ ! -x "$exe" ] || [ ! -d "$BUNDLE/_internal" ]; then
        echo "no Acervo bundle at $BUNDLE (build it with 'make package', or pass --bundle DIR)" >&2
        exit 1
    fi
    if [ -e "$INSTALL_DIR" ] && [ ! -f "$INSTALL_DIR/$MARKER" ]; then
        echo "$INSTALL_DIR exists and was not created by this script; move it away first" >&2
        exit 1
    fi
    mkdir -p "$DATA_HOME"
    # 1. copy the new bundle beside the old one, then swap: a failed copy changes nothing
    local staging="$DATA_HOME/.$APP_ID.new-$$" retired="$DATA_HOME/.$APP_ID.old-$$"
    rm -rf "$staging"
    cp -a "$BUNDLE" "$staging"
    date -u +"installed %Y-%m-%dT%H:%M:%SZ from $BUNDLE" > "$staging/$MARKER"
    if [ -d "$INSTALL_DIR" ]; then
        mv "$INSTALL_DIR" "$retired"
    fi
    mv "$staging" "$INSTALL_DIR"
    rm -rf "$retired"
    # 2. menu entry with the absolute path, icons, command-line symlink
    local exec_path
    exec_path="$(desktop_quote "$INSTALL_DIR/$APP_ID")"
    mkdir -p "$(dirname "$DESKTOP_FILE")" "$(dirname "$ICON_SVG")" "$(dirname "$ICON_PNG")"
    sed -e "s|^TryExec=.*|TryExec=$(sed_escape "$INSTALL_DIR/$APP_ID")|" \
        -e "s|^Exec=.*|Exec=$(sed_escape "$exec_path")|" -e '/^# install-linux.sh/d' \
        "$SCRIPT_DIR/$APP_ID.desktop" > "$DESKTOP_FILE.tmp"
    mv "$DESKTOP_FILE.tmp" "$DESKTOP_FILE"
    cp "$INSTALL_DIR/_internal/resources/icons/$APP_ID.svg" "$ICON_SVG"
    cp "$SCRIPT_DIR/$APP_ID.png" "$ICON_PNG"
    mkdir -p "$(dirname "$BIN_LINK")"
    if [ -L "$BIN_LINK" ] || [ ! -e "$BIN_LINK" ]; then
        ln -sfn "$INSTALL_DIR/$APP_ID" "$BIN_LINK"
    else
        echo "note: $BIN_LINK exists and is not a symlink; left alone" >&2
    fi
    refresh_caches
    echo "Acervo installed in $INSTALL_DIR"
    echo "  menu entry: $DESKTOP_FILE"
    echo "  command:    $BIN_LINK (check: $APP_ID --self-test)"
}

action=install
while [ $# -gt 0 ]; do
    case "$1" in
        --uninstall) action=uninstall ;;
        --bundle) BUNDLE="${2:?--bundle needs a directory}"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done
BUNDLE="$(cd "$BUNDLE" 2>/dev/null && pwd || echo "$BUNDLE")"
"$action"
