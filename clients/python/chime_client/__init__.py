"""Python client for chimed, the Chime notification scheduler daemon.

    from chime_client import Client, ChimeError

    with Client(app="org.example.app") as chime:
        chime.add("tea", title="Tea", body="Ready", in_seconds=180)
        for request in chime.pending():
            print(request.identifier, request.next_fire)

Calls are gRPC (grpcio) over chimed's Unix socket. Messages are the chime.v1 protobuf classes,
importable from ``chime_client.pb`` (``pb.request``, ``pb.notification_center``, ``pb.frame``),
and ``pb.notification_center_grpc`` is the generated stub module.
"""

from types import SimpleNamespace as _Namespace

from .client import Client, default_socket_path
from .requests import (DEFAULT_ACTION, DISMISS_ACTION, SNOOZE_ACTION, category, category_json, duration_seconds,
                       notification_request)
from .subscription import Subscription
from .errors import ChimeError, Code, code_name
from .generated import frame_pb2, notification_center_pb2, notification_center_pb2_grpc, request_pb2
from .types import AppLayout, Authorization, AuthorizationStatus, Delivered, FireDate, Pending, ServerInfo, Settings

pb = _Namespace(frame=frame_pb2, request=request_pb2, notification_center=notification_center_pb2,
                notification_center_grpc=notification_center_pb2_grpc)

__all__ = ["Client", "Subscription", "ChimeError", "Code", "code_name", "default_socket_path",
           "notification_request", "category", "category_json", "DEFAULT_ACTION", "DISMISS_ACTION", "SNOOZE_ACTION", "duration_seconds", "pb",
           "Pending", "Delivered", "FireDate", "Settings", "Authorization", "AuthorizationStatus", "AppLayout", "ServerInfo"]
__version__ = "0.1.0"
