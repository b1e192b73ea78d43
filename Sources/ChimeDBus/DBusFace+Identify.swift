import ChimeCore
import ChimeServer
import ChimeSystem

extension DBusFace {
  /// Reads the peer's uid and pid from the bus, then its sandbox from its process, as the
  /// socket reads a peer's: a Flatpak or Snap app may act only as itself.
  func identify(_ peer: DBusPeer) {
    link?.callDriver("GetConnectionCredentials", [.string(peer.name)]) { [weak self, weak peer] result in
      guard let self, let peer else { return }
      let credentials: (uid: UInt64, pid: UInt64)
      switch result {
      case .failure(let error):
        return identified(peer, .failure(ChimeError(.peerNotIdentified, "chimed cannot read the caller's credentials: \(error.message)")))
      case .success(let reply):
        guard let values = try? BusMessage.readArguments(reply), let first = values.first,
              var dict = try? BusDictionary(first, path: ""),
              let uid = try? dict.integer("UnixUserID", in: 0...Int64(UInt32.max)),
              let pid = try? dict.integer("ProcessID", in: 0...Int64(Int32.max)) else {
          return identified(peer, .failure(ChimeError(.peerNotIdentified, "the bus does not say the caller's user and process")))
        }
        credentials = (UInt64(uid), UInt64(pid))
      }
      let me = ProcessEnvironment.userID
      guard credentials.uid == UInt64(me) else {
        return identified(peer, .failure(ChimeError(.peerNotAllowed, "chimed serves only its own user (uid \(me))")))
      }
      let pid = Int32(credentials.pid)
      let process = PeerProcess(procRoot: configuration.hooks.procRoot)
      loop.runBlocking(catching: { () throws(ChimeError) -> PeerSandbox in
        // The connection is open, so its process lives; the pidfd check still refuses a pid
        // recycled after the process handed its connection on and exited.
        let pidfd = PeerProcess.pidFD(of: pid)
        defer { if pidfd >= 0 { FileDescriptor(rawValue: pidfd).close() } }
        let facts = process.facts(pid: pid)
        if pidfd >= 0, !PeerProcess.isRunning(pidfd: pidfd) {
          throw ChimeError(.peerNotIdentified, "the caller (pid \(pid)) exited before it could be identified")
        }
        return try PeerSandbox.identify(flatpakInfo: facts.flatpakInfo, cgroup: facts.cgroup)
      }, then: { [weak self, weak peer] result in
        guard let self, let peer else { return }
        identified(peer, result.map(\.confinedAppID))
      })
    }
  }
}
