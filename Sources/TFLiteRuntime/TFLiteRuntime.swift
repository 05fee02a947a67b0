// The TFLiteRuntime module; see DESIGN.md. Sources arrive with their issues.
