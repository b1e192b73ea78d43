import ChimeConfig
import ChimeCore
package import ChimeServer

/// The D-Bus API as one of the daemon's transports: listening is taking the bus name,
/// draining gives it up, closing leaves the bus.
extension DBusFace: ServerTransport {
  /// With no bus to reach the face is off (one line says so): chimed serves on without it.
  func listen() throws(ChimeError) { start() }

  func drain(refusing why: ChimeError) { releaseName() }

  func close(with goodbye: ChimeError) { close() }

  /// D-Bus calls carry no deadline of their own.
  func clockChanged() {}
}

/// The D-Bus API for `ServerTransports.others`: served when the configuration names a bus
/// (`ServerCollaborators.dbus`).
package struct DBusTransport: TransportFactory {
  package init() {}

  package func make(_ context: TransportContext) -> (any ServerTransport)? {
    guard let bus = context.configuration.collaborators.dbus else { return nil }
    guard let router = context.router else {
      return DBusFace(loop: context.loop, refusing: context.refusal ?? DBusFace.noRouter, configuration: context.configuration, bus: bus)
    }
    let face = DBusFace(loop: context.loop, router: router, configuration: context.configuration, bus: bus)
    face.onCall = context.noteActivity
    return face
  }
}
