import ChimeCore

/// JSON for attachments, sound resolutions and app layouts.
extension JSONOutput {
  static func attachment(_ a: Attachment) -> [String: Any] {
    var object: [String: Any] = ["id": a.identifier, "path": a.path]
    var options: [String: Any] = [:]
    if !a.options.typeHint.isEmpty { options["type_hint"] = a.options.typeHint }
    if a.options.thumbnailHidden { options["thumbnail_hidden"] = true }
    if let r = a.options.thumbnailClippingRect { options["thumbnail_clipping_rect"] = [r.x, r.y, r.width, r.height] }
    if let t = a.options.thumbnailTime { options["thumbnail_time"] = t }
    if !options.isEmpty { object["options"] = options }
    if let info = a.info {
      object["store_path"] = info.storePath
      object["type"] = info.type
      object["class"] = info.mediaClass
      object["bytes"] = info.bytes
      if info.width > 0 || info.height > 0 {
        object["width"] = info.width
        object["height"] = info.height
      }
      if info.durationSeconds > 0 { object["duration_seconds"] = info.durationSeconds }
      if info.frameCount > 0 { object["frame_count"] = info.frameCount }
    }
    return object
  }

  static func soundResolution(_ r: SoundResolution) -> [String: Any] {
    var object: [String: Any] = ["plays": r.plays.rawValue]
    if !r.path.isEmpty { object["path"] = r.path }
    if !r.reason.isEmpty { object["reason"] = r.reason }
    if !r.message.isEmpty { object["message"] = r.message }
    if !r.container.isEmpty {
      object["container"] = r.container
      object["codec"] = r.codec
      object["channels"] = r.channels
      object["sample_rate"] = r.sampleRate
      object["frames"] = r.frames
      object["duration_seconds"] = r.durationSeconds
    }
    if r.criticalDowngraded { object["critical_downgraded"] = true }
    return object
  }

  static func appLayout(_ layout: AppLayout) -> [String: Any] {
    ["app": layout.appID, "container": layout.container, "group_containers": layout.groupContainers,
     "bundle": layout.bundle, "registered": layout.registered, "sound_directories": layout.soundDirectories,
     "display_name": layout.displayName, "desktop_entry": layout.desktopEntry]
  }
}
