import ArgumentParser
import ChimeClient
import ChimeCore
import ChimeSystem
import FoundationEssentials

/// `chime categories`: the app's notification categories and their actions.
struct Categories: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "categories",
    abstract: "Set or list the app's notification categories and their actions.",
    discussion: """
      A category names the actions (buttons, text replies) a notification offers; a request \
      takes one with `chime add --category ID`. `set` replaces all of the app's categories at \
      once from a JSON array (see the README, "Categories and responses"); `list --json` prints \
      the same shape, so its output can be set again. A delivered notification keeps its \
      category as it was when it was delivered.

      Examples:
        chime categories set categories.json
        echo '[{"identifier":"reminder","actions":' \\
          '[{"identifier":"snooze","title":"Snooze"}]}]' | chime categories set -
        chime categories list --json
      """,
    subcommands: [Set.self, List.self]
  )
}

extension Categories {
  struct Set: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "set", abstract: "Replace all of the app's categories with those in a JSON file (- reads stdin).")

    @Argument(help: "A JSON file holding an array of categories, or - for standard input.") var file: String
    @OptionGroup var options: ClientOptions

    func run() async throws {
      let categories: [NotificationCategory]
      do {
        let data: Data
        if file == "-" {
          do {
            data = Data(try FileDescriptor(rawValue: 0).readToEnd())
          } catch {
            throw ValidationError("cannot read standard input: \(error)")
          }
        } else {
          guard let read = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read \(file)") }
          data = read
        }
        categories = try CategoryJSON.categories(from: data)
      } catch let error as ValidationError {
        // A bad file is a bad command line (exit 64), said without the usage text.
        printError("chime: \(file): \(error.message)")
        throw ExitCode(64)
      }
      try await reporting(json: options.json) {
        try await options.connect().setCategories(categories)
        if options.json {
          JSONOutput.print(["categories": categories.count])
        } else {
          print("set \(categories.count) categor\(categories.count == 1 ? "y" : "ies") for \(options.appID)")
        }
      }
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the app's categories and their actions.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
      try await reporting(json: options.json) {
        let categories = try await options.connect().categories()
        if options.json {
          JSONOutput.print(categories.map(CategoryJSON.object))
          return
        }
        guard !categories.isEmpty else {
          print("no categories for \(options.appID)")
          return
        }
        var table = Table(headers: ["CATEGORY", "ACTION", "TITLE", "OPTIONS"])
        for category in categories {
          let options = CategoryJSON.categoryOptions.filter { category.options.contains($0.1) }.map(\.0)
          table.add([category.identifier, "", "", options.joined(separator: ", ")])
          for action in category.actions {
            var options = CategoryJSON.actionOptions.filter { action.options.contains($0.1) }.map(\.0)
            if let input = action.textInput { options.append("text input (\(input.buttonTitle.isEmpty ? "Send" : input.buttonTitle))") }
            table.add(["", action.identifier, action.title, options.joined(separator: ", ")])
          }
          // The snooze buttons, after the actions as the desktop shows them.
          for seconds in category.snoozeSeconds {
            let title = (try? SnoozeDuration(seconds: seconds))?.buttonTitle ?? DurationText.exact(Double(seconds))
            table.add(["", NotificationAction.snoozeIdentifier, title, DurationText.exact(Double(seconds))])
          }
        }
        print(table.render(width: options.tableWidth), terminator: "")
      }
    }
  }
}
