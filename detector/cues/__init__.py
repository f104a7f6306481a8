"""The rule layer: cue lexicons (data) and the engine that matches them with guards."""

from detector.cues.engine import CueEngine, CueMatch, default_engine
from detector.cues.lexicon import Lexicon, load_lexicon

__all__ = ["CueEngine", "CueMatch", "Lexicon", "default_engine", "load_lexicon"]
