"""Errors a user can act on. Each carries a one-line message naming the file, line and remedy;
the CLI prints it without a traceback and exits with a non-zero status."""


class PivotError(Exception):
    """Base class: an error whose message is meant for the user, not a developer."""


class InputError(PivotError):
    """A transcript, log or argument that cannot be read as what it claims to be."""


class LexiconError(PivotError):
    """A cue lexicon file that is missing, malformed or holds an unsafe pattern."""


class ModelError(PivotError):
    """A model file that is missing, corrupt, untrusted or built by other library versions."""


class StateError(PivotError):
    """A state store that is corrupt or unreadable."""
