"""JSON Schemas of every YAML file kind alignbench reads, one ``<kind>.json`` each (see ``yamlload``)."""
