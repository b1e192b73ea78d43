import ChimeConfig
import ChimeCore
package import ChimeServer
import ChimeWire
import Logging

/// gRPC (HTTP/2 with prior knowledge) on the daemon's socket: claims a connection whose first
/// bytes are `PRI ` (the start of the HTTP/2 client preface, which a native frame length can
/// never spell: it would be over a gigabyte). Loop thread only.
final class GRPCProtocol: StreamProtocol {
  private static let preface = Array("PRI ".utf8)
  /// How long a refused peer has for its first request once its preface is in (the wait for
  /// its first bytes, the listener's, is for learning the protocol).
  static let requestWaitMillis: UInt64 = 5000

  private let loop: EventLoop
  private let limits: GRPCConnection.Limits
  private let clock: any WallClock
  private let logger: Logger
  private let start: (any ServerCall, CallHeader, [UInt8]) -> Void
  private let requestWaitMillis: UInt64

  init(_ context: TransportContext, requestWaitMillis: UInt64 = GRPCProtocol.requestWaitMillis) {
    let configured = context.configuration.limits
    loop = context.loop
    limits = GRPCConnection.Limits(maxMessageBytes: configured.maxFrameBytes, maxQueuedWriteBytes: configured.maxQueuedWriteBytes,
                                   maxStreams: configured.maxCallsPerConnection)
    clock = context.configuration.hooks.clock
    logger = context.configuration.collaborators.logger
    start = context.start
    self.requestWaitMillis = requestWaitMillis
  }

  func claim(_ prefix: [UInt8]) -> ProtocolClaim {
    guard prefix.starts(with: Self.preface.prefix(prefix.count)) else { return .notMine }
    return prefix.count >= Self.preface.count ? .mine : .undecided
  }

  func serve(_ socket: StreamSocket, peer: AcceptedPeer, prefix: [UInt8]) -> any StreamConnection {
    connection(socket, peer, refusal: nil, prefix: prefix)
  }

  /// Its first request is answered with `error` and a GOAWAY follows (`refuseConnection`); one
  /// that sends no request within `requestWaitMillis` gets the GOAWAY alone.
  func refuse(_ socket: StreamSocket, peer: AcceptedPeer, prefix: [UInt8], with error: ChimeError) -> any StreamConnection {
    let refused = GRPCRefusalWait(loop: loop, error: error, waitMillis: requestWaitMillis)
    refused.connection = connection(socket, peer, refusal: error, prefix: prefix)
    return refused
  }

  private func connection(_ socket: StreamSocket, _ peer: AcceptedPeer, refusal: ChimeError?, prefix: [UInt8]) -> GRPCConnection {
    let connection = GRPCConnection(id: peer.id, socket: socket, limits: limits, clock: clock, logger: logger, confinedApp: peer.confinedApp,
                                    draining: peer.draining, refusal: refusal,
                                    makeTimer: { [loop] action in LoopTimer(loop: loop, action: action) }, start: start)
    socket.onBytes = { [unowned connection] bytes in connection.received(bytes) }
    prefix.withUnsafeBytes { connection.received($0) }
    return connection
  }
}

/// gRPC for `ServerTransports.socket` (chimed offers it before the native framing).
package struct GRPCTransport: StreamProtocolFactory {
  package init() {}

  package func make(_ context: TransportContext) -> any StreamProtocol { GRPCProtocol(context) }
}
