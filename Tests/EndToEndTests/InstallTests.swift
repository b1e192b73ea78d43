import ChimeTestSupport
import Foundation
import Testing

/// `make install` and `make uninstall` through the real Makefile, into a temporary DESTDIR,
/// with the debug binaries (BUILD_DIR) so the test does not pay for a release build.
@Suite(.testTimeLimit, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/help2man")
                  && FileManager.default.isExecutableFile(atPath: "/usr/bin/make"),
                "needs make and help2man (scripts/install-deps.sh installs them)"))
struct InstallTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  static let expected: [(path: String, mode: Int)] = [
    ("usr/bin/chime", 0o755),
    ("usr/bin/chimed", 0o755),
    ("usr/libexec/chime/chime-thumbnail", 0o755),
    ("usr/libexec/chime/chime-calendar", 0o755),
    ("usr/lib/systemd/user/chimed.socket", 0o644),
    ("usr/lib/systemd/user/chimed.service", 0o644),
    ("usr/share/man/man1/chime.1", 0o644),
    ("usr/share/man/man1/chimed.1", 0o644),
    ("usr/share/bash-completion/completions/chime", 0o644),
    ("usr/share/zsh/site-functions/_chime", 0o644),
    ("usr/share/fish/vendor_completions.d/chime.fish", 0o644),
    ("usr/share/doc/chime/README.md", 0o644),
    ("usr/share/dbus-1/services/io.github.chime.Chime1.service", 0o644),
    // Chime Center: its launcher beside the helpers, its package's modules, menu entry and icon.
    ("usr/libexec/chime/chime-center", 0o755),
    ("usr/share/applications/io.github.chime.Center.desktop", 0o644),
    ("usr/share/icons/hicolor/scalable/apps/io.github.chime.Center.svg", 0o644),
  ] + ((try? FileManager.default.contentsOfDirectory(atPath: repository + "/center/chime_center")) ?? [])
    .filter { $0.hasSuffix(".py") }.map { ("usr/share/chime/center/chime_center/" + $0, 0o644) }

  func make(_ target: String, _ dir: TemporaryDirectory) throws -> ChildProcess.Result {
    try ChildProcess.run("/usr/bin/make", ["-s", target, "DESTDIR=\(dir.file("root"))", "PREFIX=/usr",
                                           "BUILD_DIR=\(DaemonProcess.binDirectory)", "INSTALL_BUILD=",
                                           "MAN_OUT=\(dir.file("man"))"],
                         directory: Self.repository, timeout: 300)
  }

  func files(under root: String) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: root)
    var found: [String] = []
    while let path = enumerator?.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
        found.append(path)
      }
    }
    return found.sorted()
  }

  /// Installing builds the three installed products in release, each alone (not chime-bench,
  /// the tests or their support target, which took most of an install's ten minutes).
  @Test func installBuildsOnlyTheProductsItInstalls() throws {
    for target in ["install", "install-user"] {
      let plan = try ChildProcess.run("/usr/bin/make", ["-n", target, "SWIFT=swift", "DESTDIR=/nonexistent", "HOME=/nonexistent"],
                                      directory: Self.repository, timeout: 120)
      #expect(plan.status == 0, "\(plan.output)\(plan.errors)")
      let builds = plan.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { $0.contains(" build") && $0.hasPrefix("swift") }
      #expect(builds == ["swift build -c release --product chime", "swift build -c release --product chimed",
                         "swift build -c release --product chime-thumbnail",
                         "swift build -c release --product chime-calendar"], "\(target): \(builds)")
    }
  }

  /// The README and the socket unit point to `make install-user`, not to steps by hand.
  @Test func theInstallDocumentationNamesTheMakeTarget() throws {
    let readme = try String(contentsOfFile: Self.repository + "/README.md", encoding: .utf8)
    #expect(readme.components(separatedBy: "\n## Using Chime\n").count == 2, "one \"## Using Chime\" heading")
    #expect(!readme.contains("by hand for now"))
    let intro = readme.components(separatedBy: "\n## ").first ?? ""
    #expect(intro.contains("`make install-user`"), "\(intro)")
    let socket = try String(contentsOfFile: Self.repository + "/deploy/chimed.socket", encoding: .utf8)
    #expect(socket.contains("make install-user") && !socket.contains("comes later"), "\(socket)")
  }

  @Test func installLaysOutTheFilesAndUninstallRemovesThem() throws {
    let dir = TemporaryDirectory()
    let root = dir.file("root")
    let installed = try make("install", dir)
    #expect(installed.status == 0, "\(installed.output)\(installed.errors)")
    // Exactly these files (the C client adds its own when clients/c has an install target).
    let found = files(under: root).filter { !$0.contains("chime-client") && !$0.hasPrefix("usr/include") && !$0.hasPrefix("usr/lib/lib") && !$0.contains("pkgconfig") }
    #expect(found == Self.expected.map(\.path).sorted())
    for (path, mode) in Self.expected {
      let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + path)
      #expect((attributes[.posixPermissions] as? Int) == mode, "\(path)")
    }
    let service = try String(contentsOfFile: root + "/usr/lib/systemd/user/chimed.service", encoding: .utf8)
    #expect(service.contains("\nExecStart=/usr/bin/chimed\n"), "\(service)")
    let activation = try String(contentsOfFile: root + "/usr/share/dbus-1/services/io.github.chime.Chime1.service", encoding: .utf8)
    #expect(activation.contains("\nExec=/usr/bin/chimed\n") && activation.contains("\nSystemdService=chimed.service\n"), "\(activation)")
    let man = try String(contentsOfFile: root + "/usr/share/man/man1/chimed.1", encoding: .utf8)
    #expect(man.contains("missed\\-grace") || man.contains("missed-grace"))
    #expect(man.contains("print\\-config") || man.contains("print-config"))
    let chimeMan = try String(contentsOfFile: root + "/usr/share/man/man1/chime.1", encoding: .utf8)
    #expect(chimeMan.contains("chime doctor"))
    // Each page is named for its program, with the version in the footer (not `NAME 0.4.0`).
    let version = try ChildProcess.run(DaemonProcess.binDirectory + "/chime", ["--version"]).output
      .trimmingCharacters(in: .whitespacesAndNewlines)
    for (page, program) in [(chimeMan, "chime"), (man, "chimed")] {
      let title = page.split(separator: "\n").first { $0.hasPrefix(".TH ") }.map(String.init) ?? ""
      #expect(title.hasPrefix(".TH \(program.uppercased()) \"1\" ") && title.contains("\"\(program) \(version)\""), "\(title)")
      #expect(page.contains(".SH NAME\n\(program) \\- "), "\(page.prefix(600))")
    }

    // Installed binaries carry no symbol table (install strips them).
    for binary in ["usr/bin/chime", "usr/bin/chimed", "usr/libexec/chime/chime-thumbnail", "usr/libexec/chime/chime-calendar"] {
      let sections = try ChildProcess.run("/usr/bin/readelf", ["-S", "-W", root + "/" + binary])
      #expect(sections.status == 0 && sections.output.contains(".text") && !sections.output.contains(".symtab")
              && !sections.output.contains(".debug_info"), "\(binary) is not stripped")
    }
    let bash = try String(contentsOfFile: root + "/usr/share/bash-completion/completions/chime", encoding: .utf8)
    #expect(bash.contains("doctor"))

    // The installed CLI finds the thumbnail helper in ../libexec/chime.
    let thumbnail = try ChildProcess.run(root + "/usr/bin/chime", ["attachment", "thumbnail", MediaCorpus.path("thumbnails/quadrants.png"),
                                                                   "-o", dir.file("thumb.png")], timeout: 60)
    #expect(thumbnail.status == 0 && thumbnail.output == "wrote \(dir.file("thumb.png")): 225x169 from public.png 64x48\n",
            "\(thumbnail.output)\(thumbnail.errors)")

    let removed = try make("uninstall", dir)
    #expect(removed.status == 0, "\(removed.output)\(removed.errors)")
    #expect(files(under: root) == [])
  }
}
