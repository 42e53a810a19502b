"""Date formats where Django's defaults do not suit bbweb's readers (FORMAT_MODULE_PATH)."""
