import ArgumentParser
import ChimeClient
import ChimeCore
import Foundation

/// `chime apps`: where apps keep their sounds and bundle files.
struct Apps: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Register and show app layouts; allow, deny and set apps' notification settings.",
    discussion: """
      An app's custom sounds are looked up in its container's Library/Sounds, then each group \
      container's Library/Sounds in the order registered, then its bundle. Attachments from \
      inside the bundle are copied into chimed's store; all others are moved. An app that never \
      registered uses $XDG_DATA_HOME/chime/apps/<id>/container and .../bundle.

      Examples:
        chime apps register org.example.tea --container ~/tea --group ~/shared --bundle /opt/tea
        chime apps show org.example.tea
        chime apps list

      allow, deny and settings are the user's side of authorization: they change the app named \
      by ID (not --app), and only the user chimed runs as can reach chimed at all.
        chime apps allow org.example.tea
        chime apps deny org.example.spam
        chime apps settings org.example.tea --sound off --badge off
      """,
    subcommands: [Register.self, Show.self, List.self, Allow.self, Deny.self, SettingsCommand.self]
  )
}

extension Apps {
  struct Register: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Record an app's directories (each must exist and be yours).")

    @Argument(help: "The app identifier (reverse-DNS).") var id: String
    @Option(help: "The app's container (its Library/Sounds holds sounds). Default: the apps directory.") var container: String?
    @Option(name: .customLong("group"), help: "A group container; repeat for several, searched in this order.") var groups: [String] = []
    @Option(help: "The app's bundle directory. Default: the apps directory.") var bundle: String?
    @Option(help: "The app's name on the desktop (default: its identifier).") var displayName = ""
    @Option(help: "The app's .desktop file id without .desktop, e.g. org.example.tea.") var desktopEntry = ""
    @OptionGroup var options: ClientOptions

    func run() async throws {
      let here = FileManager.default.currentDirectoryPath
      let container = container.map { AttachOption.absolute($0, from: here) } ?? ""
      let groups = groups.map { AttachOption.absolute($0, from: here) }
      let bundle = bundle.map { AttachOption.absolute($0, from: here) } ?? ""
      try await reporting {
        let client = try options.connect(app: id)
        let layout = try await client.registerApp(container: container, groupContainers: groups, bundle: bundle,
                                                  displayName: displayName, desktopEntry: desktopEntry)
        if options.json {
          JSONOutput.print(JSONOutput.appLayout(layout))
        } else {
          print("registered \(layout.appID)")
          printLayout(layout)
        }
      }
    }
  }

  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show one app's layout and where its sounds are looked up.")

    @Argument(help: "The app identifier (default: --app, $CHIME_APP or chime.cli).") var id: String?
    @OptionGroup var options: ClientOptions

    func run() async throws {
      try await reporting {
        let client = try options.connect(app: id ?? options.appID)
        let layout = try await client.appLayout()
        if options.json {
          JSONOutput.print(JSONOutput.appLayout(layout))
        } else {
          print("\(layout.appID)\(layout.registered ? "" : " (not registered: defaults)")")
          printLayout(layout)
        }
      }
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List registered apps.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
      try await reporting {
        let apps = try await options.connect().listApps()
        if options.json {
          JSONOutput.print(apps.map(JSONOutput.appLayout))
          return
        }
        guard !apps.isEmpty else {
          print("no registered apps")
          return
        }
        var table = Table(headers: ["APP", "CONTAINER", "GROUPS", "BUNDLE"])
        for app in apps {
          table.add([app.appID, app.container, app.groupContainers.joined(separator: ", "), app.bundle])
        }
        print(table.render(), terminator: "")
      }
    }
  }
}

private func printLayout(_ layout: AppLayout) {
  print("  container  \(layout.container)")
  for group in layout.groupContainers { print("  group      \(group)") }
  print("  bundle     \(layout.bundle)")
  if !layout.displayName.isEmpty { print("  name       \(layout.displayName)") }
  if !layout.desktopEntry.isEmpty { print("  desktop    \(layout.desktopEntry)") }
  print("  sounds are looked up in, in order:")
  for (i, directory) in layout.soundDirectories.enumerated() { print("    \(i + 1). \(directory)") }
}
