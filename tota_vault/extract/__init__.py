"""Reading conversations and proposing memories: formats, the extractor protocol, the rules.

`parse_conversation` reads a transcript, chat JSON or JSONL into `Message`s; an `Extractor`
turns messages into `Candidate`s; `RuleExtractor` is the offline default. Scoring, merging
and storing are the pipeline's (`tota_vault.pipeline`), the same for every extractor.
"""

from __future__ import annotations

from .base import Candidate, Extractor, Skip
from .messages import Message

__all__ = ["Candidate", "Extractor", "Message", "Skip"]
