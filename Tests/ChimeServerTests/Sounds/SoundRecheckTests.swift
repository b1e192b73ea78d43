import ChimeCore
@testable import ChimeServer
import ChimeTestSupport
import Foundation
import Testing

/// The delivery-time look at a resolved sound, given the app's layout as it is then.
@Suite(.testTimeLimit) struct SoundRecheckTests {
  let dir = TemporaryDirectory()
  var real: String { dir.file("real") }
  /// The container as the app registered it: through a symlinked parent, as `/home` often is.
  var linked: String { dir.file("home") }

  init() throws {
    try FileManager.default.createDirectory(atPath: real + "/container/Library/Sounds", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: real + "/bundle", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: real)
  }

  func layout() -> AppLayout {
    AppLayout(appID: "org.example.tea", container: linked + "/container", groupContainers: [], bundle: linked + "/bundle")
  }

  func recorded(_ path: String) -> SoundResolution {
    var resolution = SoundResolution(plays: .named)
    resolution.path = path
    resolution.codec = "lpcm"
    return resolution
  }

  @Test func aPathRecordedThroughASymlinkedParentStillPlays() {
    // Written by an older chimed, which recorded the path as spelled in the layout.
    MediaCorpus.copy("sounds/wav-lpcm16.wav", to: real + "/container/Library/Sounds/ding.wav")
    let now = SoundResolver.recheck(recorded(linked + "/container/Library/Sounds/ding.wav"), layout: layout())
    #expect(now.plays == .named && now.codec == "lpcm" && now.reason.isEmpty, "\(now)")
    let canonical = SoundResolver.recheck(recorded(real + "/container/Library/Sounds/ding.wav"), layout: layout())
    #expect(canonical.plays == .named, "\(canonical)")
  }

  @Test func aPathThatNowLeadsOutOfTheSoundDirectoriesPlaysTheDefault() throws {
    MediaCorpus.copy("sounds/wav-lpcm16.wav", to: dir.file("elsewhere/ding.wav"))
    try FileManager.default.removeItem(atPath: real + "/container/Library/Sounds")
    try FileManager.default.createSymbolicLink(atPath: real + "/container/Library/Sounds", withDestinationPath: dir.file("elsewhere"))
    let now = SoundResolver.recheck(recorded(real + "/container/Library/Sounds/ding.wav"), layout: layout())
    #expect(now.plays == .default && now.reason == "SOUND_NOT_FOUND", "\(now)")
    #expect(now.message.contains("outside"), "\(now.message)")
  }

  @Test func aFileOfTheAppThatIsNoLongerInItsLayoutPlaysTheDefault() {
    // The app re-registered with another bundle: the old bundle's sound is no longer its own.
    MediaCorpus.copy("sounds/wav-lpcm16.wav", to: real + "/bundle/ding.wav")
    var moved = layout()
    moved.bundle = dir.file("other-bundle")
    let now = SoundResolver.recheck(recorded(real + "/bundle/ding.wav"), layout: moved)
    #expect(now.plays == .default && now.reason == "SOUND_NOT_FOUND", "\(now)")
  }
}
