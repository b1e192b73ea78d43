@testable import ChimeServer
import ChimeClient
import ChimeCore
import ChimeSystem
import ChimeTestSupport
import Foundation
import Testing

/// An AUDIO alarm's ATTACH (issue 41): a local sound file plays as the alarm's sound, judged by
/// the same rules as an app's sounds; a file Chime cannot play, a missing one or a remote URI
/// play the default sound, and the pending request says why.
@Suite(.testTimeLimit) struct CalendarSoundTests {
  func audioItem(uid: String, start: Instant, attach: String?) -> String {
    let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
                 "DTSTAMP:20260101T000000Z", "DTSTART:\(icsUTC(start))", "SUMMARY:\(uid)",
                 "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:-PT5M"] + (attach.map { ["ATTACH:\($0)"] } ?? [])
      + ["END:VALARM", "END:VEVENT", "END:VCALENDAR"]
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  @Test func anAudioAlarmsLocalFilePlaysAndAnythingElsePlaysTheDefaultSaying() async throws {
    let d = try InProcessDaemon()
    let dir = d.directory.file("calendar")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let bell = MediaCorpus.copy("sounds/wav-lpcm16.wav", to: d.directory.file("sounds/bell.wav"))
    // A sound theme links its files: the file the link leads to is what plays.
    try FileManager.default.createSymbolicLink(atPath: d.directory.file("sounds/link.wav"), withDestinationPath: bell)
    MediaCorpus.write(Data("OggS not really".utf8), to: d.directory.file("sounds/chime.oga"))
    let start = Instant(unixMillis: d.clock.now().unixMillis + 3_600_000)
    let items: [(String, String?)] = [
      ("file-uri", "file://" + bell.replacingOccurrences(of: " ", with: "%20")),
      ("plain-path", d.directory.file("sounds/link.wav")),
      ("ogg", "file://" + d.directory.file("sounds/chime.oga")),
      ("missing", "file:///nonexistent/chime-test/ding.wav"),
      ("remote", "https://example.org/ding.wav"),
      ("none", nil),
    ]
    for (n, (uid, attach)) in items.enumerated() {
      try writeItem(audioItem(uid: uid, start: Instant(unixMillis: start.unixMillis + Int64(n) * 60_000), attach: attach), uid + ".ics", in: dir)
    }
    _ = try await d.addCalendar("sounds", path: dir)
    let pending = Dictionary(uniqueKeysWithValues: try await d.calendarPending("sounds").map { ($0.request.content.title, $0) })
    #expect(pending.count == items.count)

    for uid in ["file-uri", "plain-path"] {
      let sound = try #require(pending[uid]?.sound, "\(uid)")
      #expect(sound.plays == .named && sound.path == bell && sound.codec == "lpcm", "\(uid): \(sound)")
      #expect(pending[uid]?.request.content.sound?.kind == .named)
    }
    let ogg = try #require(pending["ogg"]?.sound)
    #expect(ogg.plays == .default && !ogg.reason.isEmpty && ogg.message.contains("chime.oga"), "\(ogg)")
    let missing = try #require(pending["missing"]?.sound)
    #expect(missing.plays == .default && missing.reason == "SOUND_NOT_FOUND" && missing.message.contains("does not exist"), "\(missing)")
    for uid in ["remote", "none"] {
      let sound = try #require(pending[uid]?.sound, "\(uid)")
      #expect(sound.plays == .default && sound.reason.isEmpty, "\(uid): \(sound)")
      #expect(pending[uid]?.request.content.sound?.kind == .default)
    }

    // At delivery the file is judged again: removed meanwhile, the default plays and says so.
    let client = try d.client(app: CalendarSource.appID(for: "sounds"), over: .inProcess)
    var events = client.subscribe().makeAsyncIterator()
    _ = try await nextEvent(&events) { $0.kind == .subscribed }
    try FileManager.default.removeItem(atPath: bell)
    d.advance(seconds: 3600 - 300)
    let fired = try await nextEvent(&events) { $0.kind == .delivered }
    #expect(fired.delivered?.request.content.title == "file-uri")
    #expect(fired.delivered?.sound?.plays == .default, "\(String(describing: fired.delivered?.sound))")
    #expect(fired.delivered?.sound?.message.contains("changed after the alarm was planned") == true)
  }
}
