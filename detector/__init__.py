"""pivot-detector: rejections, pivots and reopenings in agent conversations, without an LLM."""

from detector.detect import Detector, Mode
from detector.schema import Detection, Label, Transcript, Turn

__all__ = ["Detection", "Detector", "Label", "Mode", "Transcript", "Turn"]
__version__ = "0.1.0"
