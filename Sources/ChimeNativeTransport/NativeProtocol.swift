import ChimeConfig
import ChimeCore
package import ChimeServer
import ChimeWire
import Logging

/// The native framing on the daemon's socket (4-byte length, then a `chime.v1.Frame`): the
/// socket's default protocol, serving every connection no other protocol claims. Loop thread
/// only.
final class NativeProtocol: StreamProtocol {
  struct Limits {
    var maxFrameBytes: Int
    var maxQueuedWriteBytes: Int
    var maxCallsInFlight: Int
  }

  private let limits: Limits
  private let logger: Logger
  private let start: (any ServerCall, CallHeader, [UInt8]) -> Void

  init(_ context: TransportContext) {
    let configured = context.configuration.limits
    limits = Limits(maxFrameBytes: configured.maxFrameBytes, maxQueuedWriteBytes: configured.maxQueuedWriteBytes,
                    maxCallsInFlight: configured.maxCallsPerConnection)
    logger = context.configuration.collaborators.logger
    start = context.start
  }

  /// The default protocol is not asked; as another's, it would take anything.
  func claim(_ prefix: [UInt8]) -> ProtocolClaim { .mine }

  func serve(_ socket: StreamSocket, peer: AcceptedPeer, prefix: [UInt8]) -> any StreamConnection {
    let connection = NativeConnection(socket: socket, peer: peer, limits: limits, logger: logger, start: start)
    if !prefix.isEmpty { prefix.withUnsafeBytes { connection.decode($0) } }
    return connection
  }

  /// A final status with call id 0, whatever the peer sent.
  func refuse(_ socket: StreamSocket, peer: AcceptedPeer, prefix: [UInt8], with error: ChimeError) -> any StreamConnection {
    let connection = NativeConnection(socket: socket, peer: peer, limits: limits, logger: logger, start: { call, _, _ in
      call.finish(.failure(error))
    })
    connection.refuse(error)
    return connection
  }
}

/// The native framing for `ServerTransports.socket` (chimed puts it last: the default).
package struct NativeTransport: StreamProtocolFactory {
  package init() {}

  package func make(_ context: TransportContext) -> any StreamProtocol { NativeProtocol(context) }
}
