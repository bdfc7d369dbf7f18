"""Run learner code in a separate, limited process that only ever answers with plain JSON values."""
