import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Foundation
import Testing

/// UNNotificationSound's lookup through the daemon: container Library/Sounds, then each group
/// container's, then the bundle; first match wins; never outside those directories; a missing
/// or unplayable sound plays the default and says why, without refusing the request.
@Suite(.testTimeLimit) struct SoundResolutionTests {
  /// An app with a container, two group containers and a bundle, registered.
  struct Layout {
    let d: InProcessDaemon
    let client: ChimeClient
    var container: String { d.directory.file("app/container") }
    var group1: String { d.directory.file("app/group1") }
    var group2: String { d.directory.file("app/group2") }
    var bundle: String { d.directory.file("app/bundle") }
    var containerSounds: String { container + "/Library/Sounds" }
    var group1Sounds: String { group1 + "/Library/Sounds" }
    var group2Sounds: String { group2 + "/Library/Sounds" }

    init() async throws {
      d = try InProcessDaemon()
      client = try d.client()
      for dir in [d.directory.file("app/container/Library/Sounds"), d.directory.file("app/group1/Library/Sounds"),
                  d.directory.file("app/group2/Library/Sounds"), d.directory.file("app/bundle")] {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
      }
      _ = try await client.registerApp(container: container, groupContainers: [group1, group2], bundle: bundle)
    }

    func add(_ id: String, sound: Sound) async throws -> SoundResolution {
      var request = NotificationRequest.tea(id)
      request.content.sound = sound
      return try #require(try await client.add(request).pending.sound)
    }
  }

  @Test func theFirstPlaceInSearchOrderWins() async throws {
    let app = try await Layout()
    MediaCorpus.copy("sounds/wav-lpcm16.wav", to: app.group2Sounds + "/ding.wav")
    MediaCorpus.copy("sounds/caf-ima4.caf", to: app.bundle + "/ding.wav")
    var resolved = try await app.add("a", sound: .named("ding.wav"))
    #expect(resolved.plays == .named && resolved.path == app.group2Sounds + "/ding.wav")
    #expect(resolved.container == "wav" && resolved.codec == "lpcm" && resolved.frames > 0)

    MediaCorpus.copy("sounds/aifc-ulaw.aifc", to: app.group1Sounds + "/ding.wav")
    resolved = try await app.add("a", sound: .named("ding.wav"))
    #expect(resolved.path == app.group1Sounds + "/ding.wav")
    #expect(resolved.container == "aifc" && resolved.codec == "ulaw")

    MediaCorpus.copy("sounds/caf-lpcm16.caf", to: app.containerSounds + "/ding.wav")
    let check = try await app.client.checkSound("ding.wav")
    #expect(check.searched.map(\.path) == [app.containerSounds + "/ding.wav"])
    #expect(check.resolution.path == app.containerSounds + "/ding.wav" && check.resolution.container == "caf")
  }

  @Test func aSoundOnlyInTheBundleIsFoundAfterEveryOtherPlaceIsSearched() async throws {
    let app = try await Layout()
    MediaCorpus.copy("sounds/wav-ulaw.wav", to: app.bundle + "/only.wav")
    let check = try await app.client.checkSound("only.wav")
    #expect(check.searched.map(\.path) == [app.containerSounds, app.group1Sounds, app.group2Sounds, app.bundle].map { $0 + "/only.wav" })
    #expect(check.searched.map(\.exists) == [false, false, false, true])
    #expect(check.resolution.plays == .named)
  }

  @Test func missingTooLongUnsupportedAndCorruptSoundsPlayTheDefaultButTheRequestIsScheduled() async throws {
    let app = try await Layout()
    MediaCorpus.copy("sounds/length-30.0s-ulaw.wav", to: app.containerSounds + "/long.wav")
    MediaCorpus.copy("sounds/length-29.9s-ulaw.wav", to: app.containerSounds + "/almost.wav")
    MediaCorpus.copy("sounds/unsupported-mp3-in-wav.wav", to: app.containerSounds + "/mp3.wav")
    MediaCorpus.copy("sounds/unsupported-alac-in-caf.caf", to: app.containerSounds + "/alac.caf")
    MediaCorpus.write(MediaCorpus.data("sounds/aiff-lpcm16.aiff").prefix(20), to: app.containerSounds + "/cut.aiff")

    let cases: [(String, SoundResolution.Plays, String)] = [
      ("nowhere.wav", .default, "SOUND_NOT_FOUND"),
      ("long.wav", .default, "SOUND_TOO_LONG"),
      ("almost.wav", .named, ""),
      ("mp3.wav", .default, "SOUND_UNSUPPORTED_FORMAT"),
      ("alac.caf", .default, "SOUND_UNSUPPORTED_FORMAT"),
      ("cut.aiff", .default, "SOUND_CORRUPT"),
    ]
    for (i, (name, plays, reason)) in cases.enumerated() {
      let resolved = try await app.add("r\(i)", sound: .named(name))
      #expect(resolved.plays == plays, "\(name): \(resolved)")
      #expect(resolved.reason == reason, "\(name): \(resolved)")
      if plays == .default { #expect(!resolved.message.isEmpty) }
    }
    #expect(try await app.client.allPending().count == cases.count, "every request is scheduled")
    #expect(try await app.client.allPending().first { $0.request.identifier == "r1" }?.sound?.reason == "SOUND_TOO_LONG",
            "GetPending returns the recorded outcome")
  }

  @Test func namesThatAreNotPlainFileNamesAreRefused() async throws {
    let app = try await Layout()
    for name in ["../x.wav", "a/b.wav", "/etc/passwd", "..", "", String(repeating: "a", count: 256)] {
      let added = await caughtError { _ = try await app.add("t", sound: .named(name)) }
      #expect(added?.code == .invalidArgument && added?.reason == "INVALID_SOUND_NAME", "\(name): \(String(describing: added))")
      #expect(added?.field == "request.content.sound.name")
      let checked = await caughtError { _ = try await app.client.checkSound(name) }
      #expect(checked?.reason == "INVALID_SOUND_NAME", "\(name)")
    }
  }

  @Test func aSymlinkOutOfTheSoundDirectoriesIsNotFollowed() async throws {
    let app = try await Layout()
    let outside = MediaCorpus.copy("sounds/wav-lpcm16.wav", to: app.d.directory.file("elsewhere/secret.wav"))
    try FileManager.default.createSymbolicLink(atPath: app.containerSounds + "/out.wav", withDestinationPath: outside)
    // Inside is fine: a link from the container to a sound in the bundle.
    MediaCorpus.copy("sounds/caf-ulaw.caf", to: app.bundle + "/real.caf")
    try FileManager.default.createSymbolicLink(atPath: app.containerSounds + "/in.caf", withDestinationPath: app.bundle + "/real.caf")

    let out = try await app.client.checkSound("out.wav")
    #expect(out.resolution.plays == .default && out.resolution.reason == "SOUND_NOT_FOUND")
    #expect(out.searched.first?.exists == true && out.searched.first?.note.contains("not followed") == true)
    #expect(!out.resolution.path.contains("elsewhere"))

    let inside = try await app.add("in", sound: .named("in.caf"))
    #expect(inside.plays == .named && inside.path == app.bundle + "/real.caf")
  }

  @Test func aSoundRemovedBeforeDeliveryPlaysTheDefaultAndTheEventSaysSo() async throws {
    let app = try await Layout()
    let file = MediaCorpus.copy("sounds/wav-alaw.wav", to: app.containerSounds + "/ding.wav")
    var events = app.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    #expect(try await app.add("gone", sound: .named("ding.wav")).plays == .named)
    MediaCorpus.copy("sounds/wav-ulaw.wav", to: app.containerSounds + "/keep.wav")
    #expect(try await app.add("kept", sound: .named("keep.wav")).plays == .named)
    #expect(unlink(file) == 0)
    // The other one turns into something unplayable.
    MediaCorpus.copy("sounds/unsupported-msadpcm.wav", to: app.containerSounds + "/keep.wav")
    app.d.advance(seconds: 11)
    var seen: [String: Event] = [:]
    for _ in 0..<2 {
      let event = try await nextEvent(&events) { $0.kind == .delivered }
      seen[event.identifiers[0]] = event
    }
    let gone = try #require(seen["gone"])
    #expect(gone.delivered?.sound?.plays == .default)
    #expect(gone.delivered?.sound?.reason == "SOUND_NOT_FOUND")
    #expect(gone.note.contains("SOUND_NOT_FOUND"))
    let changed = try #require(seen["kept"])
    #expect(changed.delivered?.sound?.reason == "SOUND_UNSUPPORTED_FORMAT")
    #expect(changed.note.contains("changed"))
  }

  @Test func criticalSoundsAreDeliveredAsRegularOnesAndSaySo() async throws {
    let app = try await Layout()
    MediaCorpus.copy("sounds/wav-lpcm8.wav", to: app.containerSounds + "/alarm.wav")
    let named = try await app.add("c1", sound: Sound(kind: .criticalNamed, name: "alarm.wav", volume: 0.8))
    #expect(named.plays == .named && named.criticalDowngraded)
    #expect(named.message.contains("critical"))
    let plain = try await app.add("c2", sound: Sound(kind: .defaultCritical))
    #expect(plain.plays == .default && plain.criticalDowngraded)
    let loud = await caughtError { _ = try await app.add("c3", sound: Sound(kind: .defaultCritical, volume: 1.5)) }
    #expect(loud?.code == .invalidArgument && loud?.field == "request.content.sound.volume", "\(String(describing: loud))")
  }

  /// A pushed payload's `aps.sound` is looked up as `Add`'s is: found in the app's layout, or
  /// the default with the reason; the critical dictionary downgraded without the permission.
  @Test func aPushedSoundIsResolvedAsAtAdd() async throws {
    let app = try await Layout()
    MediaCorpus.copy("sounds/wav-lpcm16.wav", to: app.group1Sounds + "/ding.wav")
    func pushed(_ sound: String) async throws -> SoundResolution {
      let result = try await app.client.push(Array(#"{"aps":{"alert":"Goal","sound":\#(sound)}}"#.utf8))
      return try #require(result.delivered.sound)
    }
    let found = try await pushed(#""ding.wav""#)
    #expect(found.plays == .named && found.path == app.group1Sounds + "/ding.wav" && found.codec == "lpcm")
    let missing = try await pushed(#""nowhere.wav""#)
    #expect(missing.plays == .default && missing.reason == "SOUND_NOT_FOUND")
    let critical = try await pushed(#"{"critical":1,"name":"ding.wav","volume":0.5}"#)
    #expect(critical.plays == .named && critical.criticalDowngraded, "\(critical)")
    let refused = await caughtError { _ = try await pushed(#""../ding.wav""#) }
    #expect(refused?.code == .invalidArgument, "\(String(describing: refused))")
  }

  @Test func anUnregisteredAppUsesTheDefaultLayout() async throws {
    let d = try InProcessDaemon()
    let client = try d.client(app: "org.example.fresh")
    let layout = try await client.appLayout()
    #expect(!layout.registered)
    #expect(layout.container == d.directory.file("apps/org.example.fresh/container"))
    #expect(layout.bundle == d.directory.file("apps/org.example.fresh/bundle"))
    MediaCorpus.copy("sounds/caf-alaw.caf", to: layout.container + "/Library/Sounds/pop.caf")
    var request = NotificationRequest.tea("t")
    request.content.sound = .named("pop.caf")
    #expect(try await client.add(request).pending.sound?.plays == .named)
    #expect(try await client.listApps().isEmpty)
  }

  @Test func registrationChecksItsDirectories() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    let file = MediaCorpus.write(Data("x".utf8), to: d.directory.file("plain-file"))
    let cases: [(String, String, [String], String, String)] = [
      ("missing", d.directory.file("nope"), [], "", "container"),
      ("a file", file, [], "", "container"),
      ("relative", "relative/dir", [], "", "container"),
      ("dot-dot", d.directory.path + "/../x", [], "", "container"),
      ("missing group", "", [d.directory.path, d.directory.file("nope")], "", "group_containers[1]"),
      ("missing bundle", "", [], d.directory.file("nope"), "bundle"),
    ]
    for (what, container, groups, bundle, field) in cases {
      let error = await caughtError { _ = try await client.registerApp(container: container, groupContainers: groups, bundle: bundle) }
      #expect(error?.reason == "INVALID_APP_DIRECTORY" && error?.field == field, "\(what): \(String(describing: error))")
    }
    #expect(try await client.appLayout().registered == false, "nothing was recorded")
    let layout = try await client.registerApp(container: d.directory.path, groupContainers: [d.directory.path])
    #expect(layout.registered && layout.container == d.directory.path)
    #expect(layout.bundle == d.directory.file("apps/org.example.app/bundle"), "an empty bundle means the default")
    #expect(try await d.client(app: "org.example.other").listApps().map(\.appID) == ["org.example.app"])
  }
}
