// Implemented in the analyzer change.
