"""The fixture course's own answer judges: none; its one question uses the kit's equals."""

JUDGES = {}
