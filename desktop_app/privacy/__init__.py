"""privacy package: PII finding and log sanitizing, the air gap, the doctor.

presidio is imported here only through spacy_lite's finder: its spaCy imports get stand-ins
(the app runs presidio on the no_op NLP engine; spaCy stays out of the bundle).
"""

from desktop_app.privacy import spacy_lite

spacy_lite.install()
