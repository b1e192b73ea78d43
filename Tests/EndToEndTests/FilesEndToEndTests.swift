import ChimeClient
import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// Attachments, sounds and app layouts with the real `chimed` and the real `chime`, as a user
/// runs them.
@Suite(.testTimeLimit) struct FilesEndToEndTests {
  let app = "org.example.files"

  func start(_ dir: TemporaryDirectory) throws -> DaemonProcess {
    let daemon = DaemonProcess(directory: dir, arguments: ["--apps-dir", dir.file("apps")])
    try daemon.start()
    return daemon
  }

  @Test func attachmentsMoveIntoTheStoreAndLeaveItWithTheirRequest() throws {
    let dir = TemporaryDirectory()
    let daemon = try start(dir)
    let socket = daemon.socketPath
    let work = dir.file("work")
    let png = MediaCorpus.data("images/png-rgb.png")
    MediaCorpus.write(png, to: work + "/photo.png")
    MediaCorpus.write(png.prefix(png.count / 2), to: work + "/broken.png")
    MediaCorpus.copy("images/gif-animated.gif", to: dir.file("bundle/wave.gif"))

    // Rejected: nothing scheduled, the file stays.
    let bad = try ChimeCLI.run(["add", "a", "--title", "Pic", "--in", "1h", "--attach", "broken.png"], socket: socket, app: app, directory: work)
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("ATTACHMENT_CORRUPT"), "\(bad.stderr)")
    #expect(MediaCorpus.exists(work + "/broken.png"))
    #expect(try ChimeCLI.run(["pending", "--json"], socket: socket, app: app).objects?.isEmpty == true)

    // Accepted: moved (a relative path is taken from the caller's directory).
    let good = try ChimeCLI.run(["add", "a", "--title", "Pic", "--in", "1h", "--attach", "photo.png,id=photo", "--json"],
                                socket: socket, app: app, directory: work)
    #expect(good.status == 0, "\(good.stderr)")
    let content = try #require(good.object?["content"] as? [String: Any])
    let attachment = try #require((content["attachments"] as? [[String: Any]])?.first)
    #expect(attachment["id"] as? String == "photo")
    #expect(attachment["type"] as? String == "public.png")
    let stored = try #require(attachment["store_path"] as? String)
    #expect(stored.hasPrefix(daemon.dataDirectory + "/attachments/"))
    #expect(!MediaCorpus.exists(work + "/photo.png"))
    #expect(FileManager.default.contents(atPath: stored) == png)

    // From the bundle: copied, the source stays.
    #expect(try ChimeCLI.run(["apps", "register", app, "--bundle", dir.file("bundle")], socket: socket).status == 0)
    let copied = try ChimeCLI.run(["add", "b", "--title", "Wave", "--in", "1h", "--attach", dir.file("bundle/wave.gif") + ",time=2"],
                                  socket: socket, app: app)
    #expect(copied.status == 0, "\(copied.stderr)")
    #expect(MediaCorpus.exists(dir.file("bundle/wave.gif")))
    #expect(MediaCorpus.files(under: daemon.dataDirectory + "/attachments").count == 2)

    // Removing the requests empties the store.
    #expect(try ChimeCLI.run(["remove", "a", "b"], socket: socket, app: app).status == 0)
    pollUntil { MediaCorpus.files(under: daemon.dataDirectory + "/attachments").isEmpty }
    #expect(daemon.terminate() == 0)
  }

  @Test func soundsAreLookedUpInTheAppsLayout() throws {
    let dir = TemporaryDirectory()
    let daemon = try start(dir)
    let socket = daemon.socketPath
    let container = dir.file("c"), group = dir.file("g")
    MediaCorpus.copy("sounds/caf-ima4.caf", to: group + "/Library/Sounds/knock.caf")
    try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)

    let register = try ChimeCLI.run(["apps", "register", app, "--container", container, "--group", group, "--json"], socket: socket)
    #expect(register.status == 0, "\(register.stderr)")
    #expect(register.object?["registered"] as? Bool == true)
    let shown = try ChimeCLI.run(["apps", "show", app, "--json"], socket: socket)
    #expect(shown.object?["group_containers"] as? [String] == [group])
    #expect(try ChimeCLI.run(["apps", "list"], socket: socket).stdout.contains(app))

    let check = try ChimeCLI.run(["sound", "check", "knock.caf", "--json"], socket: socket, app: app)
    #expect(check.status == 0, "\(check.stderr)")
    #expect(check.object?["plays"] as? String == "named")
    #expect(check.object?["codec"] as? String == "ima4")
    let searched = try #require(check.object?["searched"] as? [[String: Any]])
    #expect(searched.map { $0["path"] as? String } == [container + "/Library/Sounds/knock.caf", group + "/Library/Sounds/knock.caf"])

    let human = try ChimeCLI.run(["sound", "check", "missing.wav"], socket: socket, app: app)
    #expect(human.status == 1)
    #expect(human.stdout.contains("SOUND_NOT_FOUND"))

    let traversal = try ChimeCLI.run(["sound", "check", "../knock.caf"], socket: socket, app: app)
    #expect(traversal.status == 1 && traversal.stderr.contains("INVALID_SOUND_NAME"), "\(traversal.stderr)")
    // A path where a name belongs says where sounds go and how to see the places searched.
    let path = try ChimeCLI.run(["add", "p", "--title", "P", "--sound", "/usr/share/sounds/x.wav"], socket: socket, app: app)
    #expect(path.status == 1 && path.stderr.contains("INVALID_SOUND_NAME") && path.stderr.contains("Library/Sounds")
      && path.stderr.contains("`chime sound check x.wav`"), "\(path.stderr)")

    // The add still schedules with a missing sound, and says what plays.
    let add = try ChimeCLI.run(["add", "s", "--title", "Knock", "--in", "1h", "--sound", "nope.wav"], socket: socket, app: app)
    #expect(add.status == 0)
    #expect(add.stdout.contains("SOUND_NOT_FOUND"), "\(add.stdout)")
    let pending = try #require(try ChimeCLI.run(["pending", "--json"], socket: socket, app: app).objects?.first)
    #expect((pending["sound_resolution"] as? [String: Any])?["plays"] as? String == "default")
    #expect(daemon.terminate() == 0)
  }

  @Test func theSoundFlagsOfChimeAdd() throws {
    let dir = TemporaryDirectory()
    let daemon = try start(dir)
    let socket = daemon.socketPath
    MediaCorpus.copy("sounds/wav-lpcm16.wav", to: dir.file("apps/\(app)/container/Library/Sounds/ding.wav"))
    func add(_ id: String, _ flags: [String]) throws -> ChimeCLI.Run {
      try ChimeCLI.run(["add", id, "--title", "T", "--in", "1h"] + flags, socket: socket, app: app)
    }
    func resolution(_ id: String) throws -> [String: Any]? {
      let pending = try ChimeCLI.run(["pending", "--json"], socket: socket, app: app).objects ?? []
      return pending.first { $0["id"] as? String == id }?["sound_resolution"] as? [String: Any]
    }
    #expect(try add("d", ["--sound", "default"]).status == 0)
    #expect(try resolution("d")?["plays"] as? String == "default")
    #expect(try add("n", ["--sound", "none"]).status == 0)
    #expect(try resolution("n")?["plays"] as? String == "none")
    #expect(try add("c", ["--critical"]).status == 0)
    #expect(try resolution("c")?["critical_downgraded"] as? Bool == true)
    let named = try add("cn", ["--sound", "ding.wav", "--critical", "--volume", "0.8"])
    #expect(named.status == 0, "\(named.stderr)")
    #expect(try resolution("cn")?["plays"] as? String == "named")
    #expect(try resolution("cn")?["critical_downgraded"] as? Bool == true)

    let loud = try add("x", ["--critical", "--volume", "2"])
    #expect(loud.status == 1 && loud.stderr.contains("INVALID_SOUND_VOLUME"), "\(loud.stderr)")
    #expect(try add("x", ["--volume", "0.5"]).status == 64, "--volume needs --critical")
    #expect(try add("x", ["--critical", "--sound", "none"]).status == 64, "a silent critical sound is a contradiction")
    #expect(try ChimeCLI.run(["pending", "--json"], socket: socket, app: app).objects?.count == 4)
    #expect(daemon.terminate() == 0)
  }

  @Test func theAttachmentQuotaFlagAndFileNamesWithCommas() throws {
    let dir = TemporaryDirectory()
    let png = MediaCorpus.data("images/png-rgb.png")
    let daemon = DaemonProcess(directory: dir, arguments: ["--apps-dir", dir.file("apps"), "--attachment-quota", "\(png.count + 10)B"])
    try daemon.start()
    let socket = daemon.socketPath
    let work = dir.file("work")
    MediaCorpus.write(png, to: work + "/a,b.png")
    MediaCorpus.write(png, to: work + "/c.png")
    let comma = try ChimeCLI.run(["add", "a", "--title", "Pic", "--in", "1h", "--attach", "a,b.png,hidden", "--json"],
                                 socket: socket, app: app, directory: work)
    #expect(comma.status == 0, "\(comma.stderr)")
    #expect(!MediaCorpus.exists(work + "/a,b.png"))
    // A mistyped option is named as one, not taken for part of the file name.
    for typo in ["c.png,hiden", "c.png,id=x,hiden", "c.png,tpye=public.png"] {
      let mistyped = try ChimeCLI.run(["add", "m", "--title", "Pic", "--in", "1h", "--attach", typo], socket: socket, app: app, directory: work)
      #expect(mistyped.status == 64 && mistyped.stderr.contains("unknown option"), "\(typo): \(mistyped.stderr)")
    }
    let missing = try ChimeCLI.run(["add", "m", "--title", "Pic", "--in", "1h", "--attach", "nope.png,hiden"], socket: socket, app: app, directory: work)
    #expect(missing.status != 0 && missing.stderr.contains("nope.png,hiden"), "no file to compare with: \(missing.stderr)")
    // A directory before the comma is no file to have mistyped an option after.
    try FileManager.default.createDirectory(atPath: work + "/shots", withIntermediateDirectories: true)
    for name in ["shots,hiden", ",hiden"] {
      let notAFile = try ChimeCLI.run(["add", "m", "--title", "Pic", "--in", "1h", "--attach", name], socket: socket, app: app, directory: work)
      #expect(notAFile.status != 0 && !notAFile.stderr.contains("unknown option") && notAFile.stderr.contains(name),
              "\(name): \(notAFile.stderr)")
    }
    let full = try ChimeCLI.run(["add", "b", "--title", "Pic", "--in", "1h", "--attach", "c.png"], socket: socket, app: app, directory: work)
    #expect(full.status == 1 && full.stderr.contains("RESOURCE_EXHAUSTED ATTACHMENT_QUOTA_EXCEEDED"), "\(full.stderr)")
    #expect(MediaCorpus.exists(work + "/c.png"))
    #expect(daemon.terminate() == 0)

    let refused = DaemonProcess(directory: TemporaryDirectory(), arguments: ["--attachment-quota", "lots"])
    #expect(throws: (any Error).self) { try refused.start(timeout: 10) }
  }

  @Test func unregisteredAppsLiveUnderXDGDataHome() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir, environment: ["XDG_DATA_HOME": dir.file("xdg")])
    try daemon.start()
    let shown = try ChimeCLI.run(["apps", "show", app, "--json"], socket: daemon.socketPath)
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(shown.object?["container"] as? String == dir.file("xdg/chime/apps/\(app)/container"))
    #expect(shown.object?["bundle"] as? String == dir.file("xdg/chime/apps/\(app)/bundle"))
    #expect(shown.object?["registered"] as? Bool == false)
    MediaCorpus.copy("sounds/caf-ulaw.caf", to: dir.file("xdg/chime/apps/\(app)/container/Library/Sounds/pop.caf"))
    let check = try ChimeCLI.run(["sound", "check", "pop.caf", "--json"], socket: daemon.socketPath, app: app)
    #expect(check.object?["plays"] as? String == "named", "\(check.stdout)")
    #expect(daemon.terminate() == 0)
  }

  @Test func killNineWhileAttachmentsAreStagedNeverLosesAFile() async throws {
    // kill -9 lands at a different point of staging each round (open, link, fsync, inspect,
    // commit, unlink). Afterwards every file is in its source, in the store, or both; what was
    // acknowledged is pending with its file; and the store holds nothing no request names.
    let dir = TemporaryDirectory()
    let padded = Self.paddedMovie(bytes: 8_000_000 + MediaCorpus.data("movies/mp4-video.mp4").count)
    var acknowledged: Set<String> = []
    var sources: [String: String] = [:]
    for (round, delay) in [0, 3, 6, 10, 15, 20, 30, 45].enumerated() {
      let daemon = DaemonProcess(directory: dir, arguments: ["--apps-dir", dir.file("apps")])
      try daemon.start()
      let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: app)
      let names = (0..<3).map { "r\(round)-\($0)" }
      for name in names { sources[name] = MediaCorpus.write(padded, to: dir.file("in/\(name).mp4")) }
      let paths = sources
      let adds = Task {
        var done: [String] = []
        for name in names {
          var request = NotificationRequest(identifier: name, content: NotificationContent(title: name),
                                            trigger: .timeInterval(TimeIntervalTrigger(seconds: 3600)))
          request.content.attachments = [Attachment(path: paths[name]!)]
          guard (try? await client.add(request)) != nil else { break }
          done.append(name)
        }
        return done
      }
      usleep(UInt32(delay) * 1000)
      daemon.kill9()
      acknowledged.formUnion(await adds.value)
    }
    let daemon = DaemonProcess(directory: dir, arguments: ["--apps-dir", dir.file("apps")])
    try daemon.start()
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: app)
    let pending = try await client.allPending()
    var held: Set<String> = []
    for p in pending {
      let path = try #require(p.request.content.attachments.first?.info?.storePath)
      #expect(FileManager.default.contents(atPath: path) == padded, "\(p.request.identifier): stored bytes")
      held.insert(path)
    }
    let pendingNames = Set(pending.map(\.request.identifier))
    #expect(acknowledged.isSubset(of: pendingNames), "acknowledged \(acknowledged.sorted()), pending \(pendingNames.sorted())")
    for (name, source) in sources where !pendingNames.contains(name) {
      #expect(FileManager.default.contents(atPath: source) == padded, "\(name) is neither pending nor at its source")
    }
    for name in acknowledged { #expect(!MediaCorpus.exists(sources[name]!), "\(name) was acknowledged as moved") }
    #expect(Set(MediaCorpus.files(under: daemon.dataDirectory + "/attachments")) == held, "the sweep leaves only held files")
    #expect(daemon.terminate() == 0)
  }

  @Test func sigtermWhileAttachmentsWaitForTheFileLaneLosesNothing() async throws {
    // Six clients add an 8 MB movie each to a one-wide lane and chimed is told to stop: at once,
    // a little later, or as soon as the first add is answered. Whatever each client was told,
    // a request is pending exactly when its file has left its source; chimed exits cleanly.
    // (Which add lands in which state depends on timing; the in-process
    // shutdownAnswersTheStagingAddAndRefusesTheWaitingOnes holds each state deterministically.)
    let dir = TemporaryDirectory()
    let padded = Self.paddedMovie(bytes: 8_000_000)
    var sources: [String: String] = [:]
    var answered: [String: Result<Void, ChimeError>] = [:]
    // nil: SIGTERM when the first answer arrives.
    for (round, delay) in [0, 5, 20, nil].enumerated() {
      let daemon = DaemonProcess(directory: dir, arguments: ["--apps-dir", dir.file("apps"), "--file-lane-width", "1"])
      try daemon.start()
      let names = (0..<6).map { "t\(round)-\($0)" }
      var clients: [String: ChimeClient] = [:]
      for name in names {
        sources[name] = MediaCorpus.write(padded, to: dir.file("in/\(name).mp4"))
        clients[name] = try ChimeClient.connect(socketPath: daemon.socketPath, app: app)
      }
      let paths = sources, connected = clients, pid = daemon.processIdentifier
      let adds = Task {
        await withTaskGroup(of: (String, Result<Void, ChimeError>).self) { group in
          for name in names {
            group.addTask {
              var request = NotificationRequest(identifier: name, content: NotificationContent(title: name),
                                                trigger: .timeInterval(TimeIntervalTrigger(seconds: 3600)))
              request.content.attachments = [Attachment(path: paths[name]!)]
              do throws(ChimeError) {
                _ = try await connected[name]!.add(request)
                return (name, .success(()))
              } catch {
                return (name, .failure(error))
              }
            }
          }
          var results: [String: Result<Void, ChimeError>] = [:]
          for await (name, result) in group {
            if results.isEmpty && delay == nil { kill(pid, SIGTERM) }
            results[name] = result
          }
          return results
        }
      }
      if let delay {
        usleep(UInt32(delay) * 1000)
        kill(daemon.processIdentifier, SIGTERM)
      }
      answered.merge(await adds.value) { $1 }
      let status = daemon.waitForExit()
      #expect(status == 0, "a clean exit within 20 s (nil: still running, killed): \(String(describing: status)) \(daemon.log.suffix(2000))")
    }
    let daemon = DaemonProcess(directory: dir, arguments: ["--apps-dir", dir.file("apps")])
    try daemon.start()
    let client = try ChimeClient.connect(socketPath: daemon.socketPath, app: app)
    let pending = Set(try await client.allPending().map(\.request.identifier))
    for (name, result) in answered.sorted(by: { $0.key < $1.key }) {
      // Whatever the answer, a request is pending exactly when its file has left its source.
      let sourceIntact = FileManager.default.contents(atPath: sources[name]!) == padded
      #expect(pending.contains(name) != sourceIntact, "\(name): pending \(pending.contains(name)), source intact \(sourceIntact)")
      switch result {
      case .success:
        #expect(pending.contains(name), "\(name) was acknowledged")
      case .failure(let error):
        // A refusal is final: the request must not be pending behind the client's back.
        #expect(error.code == .unavailable && !pending.contains(name), "\(name): \(error), pending \(pending.contains(name))")
      }
    }
    let acknowledged = answered.values.filter { if case .success = $0 { true } else { false } }.count
    #expect(acknowledged >= 1, "the last round stops only after an answer: \(answered)")
    #expect(daemon.terminate() == 0)
  }

  /// The test movie grown to `bytes` with a trailing `free` box (still a valid MPEG-4).
  static func paddedMovie(bytes: Int) -> Data {
    var padded = MediaCorpus.data("movies/mp4-video.mp4")
    let pad = bytes - padded.count
    padded.append(contentsOf: [UInt8(pad >> 24), UInt8((pad >> 16) & 0xFF), UInt8((pad >> 8) & 0xFF), UInt8(pad & 0xFF)])
    padded.append(contentsOf: Array("free".utf8))
    padded.append(Data(count: pad - 8))
    return padded
  }
}
