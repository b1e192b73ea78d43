"""Protobuf modules and gRPC stubs generated from Protos/chime/v1. DO NOT EDIT: run clients/python/generate.sh."""
