import ChimeClient
import ChimeCore
import ChimeServer
import ChimeTestSupport
import Foundation
import Testing

/// The lookup's edges: directories that lead out of their root, entries that are not files,
/// files that change between scheduling and delivery, and the limits of names and volumes.
extension SoundResolutionTests {
  @Test func aSymlinkedSoundsDirectoryLeadingOutOfTheContainerIsNotFollowed() async throws {
    let app = try await Layout()
    // Library/Sounds of group1 is a link to a directory outside every root of the app.
    let outside = app.d.directory.file("elsewhere/Sounds")
    MediaCorpus.copy("sounds/wav-lpcm16.wav", to: outside + "/ding.wav")
    try FileManager.default.removeItem(atPath: app.group1Sounds)
    try FileManager.default.createSymbolicLink(atPath: app.group1Sounds, withDestinationPath: outside)
    // And the container's whole Library is a link out.
    MediaCorpus.copy("sounds/wav-lpcm16.wav", to: app.d.directory.file("elsewhere/Library/Sounds/ding.wav"))
    try FileManager.default.removeItem(atPath: app.container + "/Library")
    try FileManager.default.createSymbolicLink(atPath: app.container + "/Library", withDestinationPath: app.d.directory.file("elsewhere/Library"))

    let check = try await app.client.checkSound("ding.wav")
    #expect(check.resolution.plays == .default && check.resolution.reason == "SOUND_NOT_FOUND", "\(check)")
    #expect(check.searched.count == 4)
    #expect(check.searched[0].exists && check.searched[0].note.contains("outside"), "\(check.searched[0])")
    #expect(check.searched[1].exists && check.searched[1].note.contains("outside"), "\(check.searched[1])")

    // A sound in the bundle is still found after them.
    MediaCorpus.copy("sounds/caf-lpcm16.caf", to: app.bundle + "/ding.wav")
    let found = try await app.add("b", sound: .named("ding.wav"))
    #expect(found.plays == .named && found.path == app.bundle + "/ding.wav")
  }

  @Test func aDirectoryWithTheSoundsNameIsPassedOver() async throws {
    let app = try await Layout()
    try FileManager.default.createDirectory(atPath: app.containerSounds + "/ding.wav", withIntermediateDirectories: true)
    MediaCorpus.copy("sounds/wav-ulaw.wav", to: app.group1Sounds + "/ding.wav")
    let check = try await app.client.checkSound("ding.wav")
    #expect(check.searched.map(\.exists) == [true, true])
    #expect(check.searched[0].note.contains("directory"))
    #expect(check.resolution.plays == .named && check.resolution.path == app.group1Sounds + "/ding.wav")

    // So is a symlink to a directory (here one inside the app's own sound directories).
    try FileManager.default.createDirectory(atPath: app.group1Sounds + "/chimes", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: app.containerSounds + "/bell.wav", withDestinationPath: app.group1Sounds + "/chimes")
    MediaCorpus.copy("sounds/wav-ulaw.wav", to: app.bundle + "/bell.wav")
    let linked = try await app.client.checkSound("bell.wav")
    #expect(linked.searched[0].note.contains("directory"), "\(linked.searched[0])")
    #expect(linked.resolution.plays == .named && linked.resolution.path == app.bundle + "/bell.wav", "\(linked.resolution)")
  }

  @Test func emptyAudioAndSixteenBitG711InWAVPlayTheDefault() async throws {
    let app = try await Layout()
    MediaCorpus.write(Data(MediaSoundFileBuilder.wav(formatTag: 1, bits: 16, dataBytes: 0)), to: app.containerSounds + "/silent.wav")
    MediaCorpus.write(Data(MediaSoundFileBuilder.wav(formatTag: 7, bits: 16, dataBytes: 1600)), to: app.containerSounds + "/ulaw16.wav")
    let silent = try await app.add("s", sound: .named("silent.wav"))
    #expect(silent.plays == .default && silent.reason == "SOUND_CORRUPT" && silent.message.contains("no audio"), "\(silent)")
    let ulaw = try await app.add("u", sound: .named("ulaw16.wav"))
    #expect(ulaw.plays == .default && ulaw.reason == "SOUND_UNSUPPORTED_FORMAT", "\(ulaw)")
  }

  @Test func aSoundReplacedByAnotherPlayableFileIsDeliveredWithItsNewFacts() async throws {
    let app = try await Layout()
    MediaCorpus.copy("sounds/wav-lpcm16.wav", to: app.containerSounds + "/ding.wav")
    var events = app.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    let before = try await app.add("swap", sound: .named("ding.wav"))
    #expect(before.codec == "lpcm")
    MediaCorpus.copy("sounds/wav-alaw.wav", to: app.containerSounds + "/ding.wav")
    app.d.advance(seconds: 11)
    let event = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(event.delivered?.sound?.plays == .named)
    #expect(event.delivered?.sound?.codec == "alaw", "the facts of the file that plays now")
    #expect(event.note.isEmpty, "nothing to warn about: \(event.note)")
  }

  @Test func aCriticalSoundThatVanishesKeepsItsCriticalNote() async throws {
    let app = try await Layout()
    let file = MediaCorpus.copy("sounds/wav-lpcm8.wav", to: app.containerSounds + "/alarm.wav")
    var events = app.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    _ = try await app.add("c", sound: Sound(kind: .criticalNamed, name: "alarm.wav", volume: 0.5))
    #expect(unlink(file) == 0)
    app.d.advance(seconds: 11)
    let event = try await nextEvent(&events) { $0.kind == .delivered }
    let sound = try #require(event.delivered?.sound)
    #expect(sound.plays == .default && sound.reason == "SOUND_NOT_FOUND")
    #expect(sound.criticalDowngraded)
    #expect(sound.message.contains("removed") && sound.message.contains("critical"), "\(sound.message)")
  }

  @Test func aDirectoryOnTheWayReplacedByASymlinkIsNotFollowedAtDelivery() async throws {
    let app = try await Layout()
    MediaCorpus.copy("sounds/wav-lpcm16.wav", to: app.group2Sounds + "/ding.wav")
    var events = app.client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    #expect(try await app.add("d", sound: .named("ding.wav")).path == app.group2Sounds + "/ding.wav")
    // Between scheduling and delivery the Sounds directory becomes a link to somewhere else
    // holding a file of the same name.
    MediaCorpus.copy("sounds/wav-lpcm16.wav", to: app.d.directory.file("elsewhere/ding.wav"))
    try FileManager.default.removeItem(atPath: app.group2Sounds)
    try FileManager.default.createSymbolicLink(atPath: app.group2Sounds, withDestinationPath: app.d.directory.file("elsewhere"))
    app.d.advance(seconds: 11)
    let event = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(event.delivered?.sound?.plays == .default, "\(String(describing: event.delivered?.sound))")
    #expect(event.note.contains("SOUND_NOT_FOUND"), "\(event.note)")
  }

  @Test func namesUpTo255BytesAndVolumesWithin0To1() async throws {
    let app = try await Layout()
    let longest = String(repeating: "a", count: 251) + ".wav"
    MediaCorpus.copy("sounds/wav-lpcm16.wav", to: app.containerSounds + "/" + longest)
    #expect(try await app.add("n1", sound: .named(longest)).plays == .named)
    let multibyte = String(repeating: "é", count: 128)  // 256 bytes, 128 characters
    let tooLong = await caughtError { _ = try await app.add("n2", sound: .named(multibyte)) }
    #expect(tooLong?.reason == "INVALID_SOUND_NAME", "limits count bytes, not characters")

    for volume in [-0.1, .nan, .infinity, -.infinity, 1.0000001] {
      let error = await caughtError { _ = try await app.add("v", sound: Sound(kind: .criticalNamed, name: "x.wav", volume: volume)) }
      #expect(error?.reason == "INVALID_SOUND_VOLUME" && error?.field == "request.content.sound.volume", "\(volume)")
    }
    for volume in [0.0, 1.0] {
      #expect(try await app.add("v", sound: Sound(kind: .defaultCritical, volume: volume)).plays == .default)
    }
    let notCritical = await caughtError { _ = try await app.add("v", sound: Sound(kind: .named, name: "x.wav", volume: 0.5)) }
    #expect(notCritical?.reason == "INVALID_SOUND_VOLUME" && notCritical?.message.contains("critical") == true)
  }

  @Test(.enabled(if: geteuid() == 0, "needs root to make a directory that belongs to someone else"))
  func directoriesOfAnotherUserCannotBeRegistered() async throws {
    let d = try InProcessDaemon()
    let client = try d.client()
    let theirs = d.directory.file("theirs")
    try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: true)
    #expect(chown(theirs, 65534, 65534) == 0)
    let error = await caughtError { _ = try await client.registerApp(container: theirs) }
    #expect(error?.reason == "INVALID_APP_DIRECTORY" && error?.field == "container", "\(String(describing: error))")
    #expect(error?.message.contains("belong") == true, "\(String(describing: error))")
  }
}
