"""Label files (``labels.yaml``): format, schema, checks and the labelling tools (``alignbench label``)."""
