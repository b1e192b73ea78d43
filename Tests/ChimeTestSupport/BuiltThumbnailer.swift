public import ChimeSystem

extension ThumbnailHelper {
  /// The built `chime-thumbnail`, beside the built `chimed` (`DaemonProcess.binDirectory`).
  public static var built: ThumbnailHelper { ThumbnailHelper(path: DaemonProcess.binDirectory + "/" + name) }
}
