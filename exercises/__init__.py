"""The modules learners edit. Each function's body is a stub until you write it."""
