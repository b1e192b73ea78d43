import ArgumentParser
import ChimeClient
import ChimeCore
import FoundationEssentials

/// `chime apps`: where apps keep their sounds and bundle files.
struct Apps: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "apps",
    abstract: "Register and show app layouts; allow, deny and set apps' notification settings.",
    discussion: """
      An app's custom sounds are looked up in its container's Library/Sounds, then each group \
      container's Library/Sounds in the order registered, then its bundle. Attachments from \
      inside the bundle are copied into chimed's store; all others are moved. An app that never \
      registered uses $XDG_DATA_HOME/chime/apps/<id>/container and .../bundle.

      Examples:
        chime apps register org.example.tea --container ~/tea --group ~/shared \\
          --bundle /opt/tea
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
    static let configuration = CommandConfiguration(
      commandName: "register",
      abstract: "Record an app's directories (each must exist and be yours).",
      discussion: """
        Registering again changes only what is given: the rest stays as registered. --reset starts \
        from the defaults instead. --group replaces the group list; --no-groups clears it. Prints \
        what changed.
        """)

    @Argument(help: "The app identifier (reverse-DNS).") var id: String
    @Option(help: "The app's container (its Library/Sounds holds sounds). Default: the apps directory.") var container: String?
    @Option(name: .customLong("group"), help: "A group container; repeat for several, searched in this order.") var groups: [String] = []
    @Flag(help: "Clear the group containers.") var noGroups = false
    @Option(help: "The app's bundle directory. Default: the apps directory.") var bundle: String?
    @Option(help: "The app's name on the desktop (default: its identifier).") var displayName: String?
    @Option(help: "The app's .desktop file id without .desktop, e.g. org.example.tea.") var desktopEntry: String?
    @Flag(help: "Start from the defaults: what is not given is reset.") var reset = false
    @OptionGroup var options: ClientOptions

    func validate() throws {
      if noGroups && !groups.isEmpty { throw ValidationError("give --group or --no-groups, not both") }
    }

    func run() async throws {
      let here = FileManager.default.currentDirectoryPath
      try await reporting(json: options.json) {
        let client = try options.connect(app: id)
        let before = try await client.appLayout()
        let keep = before.registered && !reset
        /// A registered directory that is the default is sent as "" (the default), so the
        /// daemon keeps following its apps directory.
        func kept(_ path: String, _ leaf: String) -> String {
          guard keep, !path.hasSuffix("/\(id)/\(leaf)") else { return "" }
          return path
        }
        let newContainer = container.map { AttachOption.absolute($0, from: here) } ?? kept(before.container, "container")
        let newGroups = noGroups ? [] : groups.isEmpty ? (keep ? before.groupContainers : []) : groups.map { AttachOption.absolute($0, from: here) }
        let newBundle = bundle.map { AttachOption.absolute($0, from: here) } ?? kept(before.bundle, "bundle")
        let layout = try await client.registerApp(container: newContainer, groupContainers: newGroups, bundle: newBundle,
                                                  displayName: displayName ?? (keep ? before.displayName : ""),
                                                  desktopEntry: desktopEntry ?? (keep ? before.desktopEntry : ""))
        let changes = Self.changes(from: before, to: layout)
        if options.json {
          var object = JSONOutput.appLayout(layout)
          object["changed"] = changes.map { ["field": $0.field, "from": $0.from, "to": $0.to] }
          JSONOutput.print(object)
        } else {
          print("\(before.registered ? "registered again" : "registered") \(layout.appID)"
                + (before.registered && changes.isEmpty ? " (nothing changed)" : ""))
          for change in changes where before.registered {
            print("  changed \(change.field): \(change.from.isEmpty ? "(none)" : change.from) -> \(change.to.isEmpty ? "(none)" : change.to)")
          }
          printLayout(layout)
        }
      }
    }

    static func changes(from before: AppLayout, to after: AppLayout) -> [(field: String, from: String, to: String)] {
      let pairs: [(String, String, String)] = [
        ("container", before.container, after.container),
        ("groups", before.groupContainers.joined(separator: ", "), after.groupContainers.joined(separator: ", ")),
        ("bundle", before.bundle, after.bundle),
        ("display-name", before.displayName, after.displayName),
        ("desktop-entry", before.desktopEntry, after.desktopEntry),
      ]
      return pairs.filter { $0.1 != $0.2 }.map { (field: $0.0, from: $0.1, to: $0.2) }
    }
  }

  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one app's layout and where its sounds are looked up.")

    @Argument(help: "The app identifier (default: --app, $CHIME_APP or chime.cli).") var id: String?
    @OptionGroup var options: ClientOptions

    func run() async throws {
      try await reporting(json: options.json) {
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
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List registered apps.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
      try await reporting(json: options.json) {
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
        print(table.render(width: options.tableWidth), terminator: "")
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
