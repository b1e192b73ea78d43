"""Protobuf modules generated from Protos/chime/v1. DO NOT EDIT: run clients/python/generate.sh."""
