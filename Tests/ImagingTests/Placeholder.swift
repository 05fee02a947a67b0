// Tests for this target arrive with their module.
