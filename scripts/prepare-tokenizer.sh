#!/usr/bin/env bash
# Placeholder until the tokenizer work lands: writes nothing.
exit 0
