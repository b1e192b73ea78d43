import ChimeTestSupport
import Foundation
import Testing

/// `chime doctor` names each registered calendar (issue 41): ok with its counts, or a warning
/// for the files it skipped and for a calendar whose folder cannot be read.
@Suite(.testTimeLimit) struct DoctorCalendarTests {
  let item = """
    BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Chime tests//EN\r\nBEGIN:VEVENT\r\nUID:standup\r\nDTSTAMP:20260101T000000Z\r
    DTSTART:20991201T090000Z\r\nSUMMARY:Standup\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\nEND:VEVENT\r
    END:VCALENDAR\r\n
    """

  func checks(_ output: String) -> [String: [String: Any]] {
    let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
    let all = object?["checks"] as? [[String: Any]] ?? []
    return Dictionary(all.map { (($0["name"] as? String) ?? "", $0) }, uniquingKeysWith: { a, _ in a })
  }

  @Test func eachCalendarIsCheckedAndWhatCouldNotBeReadIsNamed() throws {
    let dir = TemporaryDirectory()
    let daemon = DaemonProcess(directory: dir)
    try daemon.start()
    defer { daemon.terminate() }
    let chime = DaemonProcess.binDirectory + "/chime"
    for (name, files) in [("good", ["a.ics": item]), ("broken", ["a.ics": item, "broken.ics": "BEGIN:VCALENDAR\r\nnot an item\r\n"]),
                          ("gone", ["a.ics": item])] {
      let folder = dir.file(name)
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      for (file, text) in files { try text.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8) }
      let added = try ChildProcess.run(chime, ["calendar", "add", name, folder, "--socket", dir.socketPath])
      #expect(added.status == 0, "\(added.output)\(added.errors)")
    }
    try FileManager.default.removeItem(atPath: dir.file("gone"))
    // The item is far ahead: planned later (only the next two days are scheduled).
    // chimed notices the folder went (inotify) and says so once its scan has failed.
    let deadline = Date().addingTimeInterval(10)
    var listed = ""
    while Date() < deadline {
      listed = try ChildProcess.run(chime, ["calendar", "list", "--socket", dir.socketPath]).output
      if listed.contains("gone: not read:") { break }
      usleep(20_000)
    }
    #expect(listed.contains("gone: not read: "), "\(listed)")

    let run = try ChildProcess.run(chime, ["doctor", "--json", "--socket", dir.socketPath, "--data-dir", daemon.dataDirectory, "--config", "/dev/null"])
    let found = checks(run.output)
    #expect(found["calendar good"]?["status"] as? String == "ok", "\(run.output)")
    #expect((found["calendar good"]?["detail"] as? String)?.contains("1 item, 0 alarms scheduled, last read ") == true, "\(run.output)")
    #expect(found["calendar broken"]?["status"] as? String == "warn")
    #expect((found["calendar broken"]?["detail"] as? String)?.contains("skipped broken.ics") == true, "\(run.output)")
    #expect(found["calendar gone"]?["status"] as? String == "warn")
    #expect((found["calendar gone"]?["detail"] as? String)?.contains("not read: ") == true, "\(run.output)")
    #expect((found["calendar gone"]?["hint"] as? String)?.contains("chime calendar remove gone") == true, "\(run.output)")
  }
}
