import ArgumentParser
import ChimeClient
import ChimeCore

struct Remove: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Remove pending notifications.",
    discussion: """
      Examples:
        chime remove tea
        chime remove tea stretch
        chime remove --all
      """
  )

  @OptionGroup var options: ClientOptions

  @Argument(help: "Identifiers of the pending requests to remove.")
  var identifiers: [String] = []

  @Flag(help: "Remove every pending request of the app.")
  var all = false

  func validate() throws {
    if all == !identifiers.isEmpty { throw ValidationError("give identifiers or --all") }
  }

  func run() async throws {
    try await reporting {
      let client = try options.connect()
      let removed = all ? try await client.removeAllPending() : try await client.removePending(identifiers)
      report(removed: removed, asked: all ? nil : identifiers, json: options.json, what: "pending")
    }
  }
}

func report(removed: [String], asked: [String]?, json: Bool, what: String) {
  if json {
    JSONOutput.print(["removed": removed, "not_found": (asked ?? []).filter { !removed.contains($0) }] as [String: Any])
    return
  }
  print(removed.isEmpty ? "nothing removed" : "removed \(removed.count) \(what): \(removed.joined(separator: ", "))")
  for id in asked ?? [] where !removed.contains(id) {
    print("not found: \(id)")
  }
}
