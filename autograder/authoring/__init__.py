"""Course authoring: source notebooks from the lesson sources, stubs from the reference, the learner bundle."""
