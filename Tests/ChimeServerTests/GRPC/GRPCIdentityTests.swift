import ChimeCore
import ChimeServer
import ChimeTestSupport
import ChimeWire
import Foundation
import Glibc
import Testing

/// The identity rules of the native framing hold on gRPC: a sandboxed peer acts only as its own
/// app whatever its `chime-app` metadata says, a host process as it declares.
@Suite(.testTimeLimit) struct GRPCIdentityTests {
  /// A fake /proc with this process as a Flatpak app or a host process.
  func fakeProc(_ dir: TemporaryDirectory, flatpak: String?) throws -> String {
    let root = dir.file("proc")
    let me = "\(root)/\(getpid())"
    try FileManager.default.createDirectory(atPath: me + "/root", withIntermediateDirectories: true)
    try "0::/user.slice/app.slice/term.scope\n".write(toFile: me + "/cgroup", atomically: true, encoding: .utf8)
    if let flatpak { try "[Application]\nname=\(flatpak)\n".write(toFile: me + "/root/.flatpak-info", atomically: true, encoding: .utf8) }
    return root
  }

  func pending(_ h2: H2Client, app: String) throws -> H2Client.Response {
    h2.response(h2.request(Method.getPending.rawValue, app: app, messages: [try CallTable.getPending.encodeRequest(PageRequest())]))
  }

  @Test func aFlatpakAppActsOnlyAsItselfOverGRPC() throws {
    let dir = TemporaryDirectory()
    let proc = try fakeProc(dir, flatpak: "org.example.maps")
    let d = try InProcessDaemon(directory: dir) { $0.hooks.procRoot = proc }
    let h2 = try H2Client(path: d.socketPath)
    #expect(try pending(h2, app: "org.example.maps").grpcStatus == 0)
    let posing = try pending(h2, app: "org.example.bank")
    #expect(posing.grpcStatus == StatusCode.permissionDenied.rawValue, "\(posing)")
    #expect(posing.status["grpc-message"]?.contains("org.example.maps") == true)
  }

  @Test func aHostProcessDeclaresAnyAppOverGRPC() throws {
    let dir = TemporaryDirectory()
    let proc = try fakeProc(dir, flatpak: nil)
    let d = try InProcessDaemon(directory: dir) { $0.hooks.procRoot = proc }
    let h2 = try H2Client(path: d.socketPath)
    for app in ["org.example.one", "org.example.two"] { #expect(try pending(h2, app: app).grpcStatus == 0) }
  }
}
