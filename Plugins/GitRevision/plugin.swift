import Foundation
import PackagePlugin

/// Writes `GitRevision.swift` (the commit the sources were built from, and whether they had
/// uncommitted changes) before each build of the target that uses it, by running
/// `scripts/git-revision.sh`. Outside a git clone, or without git, the revision is nil and
/// `--version` shows the release number alone.
@main struct GitRevision: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let output = context.pluginWorkDirectoryURL.appending(path: "generated")
    let script = context.package.directoryURL.appending(path: "scripts/git-revision.sh")
    return [
      .prebuildCommand(displayName: "Recording the git revision for --version",
                       executable: URL(fileURLWithPath: "/bin/sh"),
                       arguments: [script.path, context.package.directoryURL.path, output.path],
                       outputFilesDirectory: output)
    ]
  }
}
