import ChimeCore
import Testing

@Suite struct ExtensionRegistrationTests {
  @Test(arguments: [
    (ExtensionRegistration(extensionIdentifier: "", categoryIdentifiers: ["a"]), "INVALID_IDENTIFIER extension_identifier"),
    (ExtensionRegistration(extensionIdentifier: "e", categoryIdentifiers: []), "EXTENSION_CATEGORIES_REQUIRED category_identifiers"),
    (ExtensionRegistration(extensionIdentifier: "e", categoryIdentifiers: ["a", ""]), "INVALID_IDENTIFIER category_identifiers[1]"),
    (ExtensionRegistration(extensionIdentifier: "e", categoryIdentifiers: (0...128).map { "c\($0)" }), "TOO_MANY_IDENTIFIERS category_identifiers"),
  ])
  func refuses(_ registration: ExtensionRegistration, _ expected: String) {
    do {
      try registration.validate()
      Issue.record("expected \(expected)")
    } catch {
      #expect("\(error.reason) \(error.field)" == expected)
    }
  }

  static func attributes(_ ratio: Double? = 1, type: MediaPlayPauseButtonType = .none, frame: MediaButtonFrame? = nil,
                         tint: String = "") -> ExtensionRegistration {
    ExtensionRegistration(extensionIdentifier: "e", categoryIdentifiers: ["a"], attributes: ExtensionAttributes(
      initialContentSizeRatio: ratio, mediaButton: MediaPlayPauseButton(type: type, frame: frame, tintColor: tint)))
  }

  static let frame = MediaButtonFrame(x: 10, y: 10, width: 44, height: 44)

  @Test(arguments: [
    (attributes(nil), "CONTENT_SIZE_RATIO_REQUIRED attributes.initial_content_size_ratio"),
    (attributes(0), "INVALID_CONTENT_SIZE_RATIO attributes.initial_content_size_ratio"),
    (attributes(-0.5), "INVALID_CONTENT_SIZE_RATIO attributes.initial_content_size_ratio"),
    (attributes(.nan), "INVALID_CONTENT_SIZE_RATIO attributes.initial_content_size_ratio"),
    (attributes(.infinity), "INVALID_CONTENT_SIZE_RATIO attributes.initial_content_size_ratio"),
    (attributes(10.5), "INVALID_CONTENT_SIZE_RATIO attributes.initial_content_size_ratio"),
    (attributes(type: .default), "INVALID_MEDIA_BUTTON_FRAME attributes.media_button.frame"),
    (attributes(type: .overlay, frame: MediaButtonFrame(x: -1, y: 0, width: 4, height: 4)), "INVALID_MEDIA_BUTTON_FRAME attributes.media_button.frame.x"),
    (attributes(type: .overlay, frame: MediaButtonFrame(x: 0, y: .nan, width: 4, height: 4)), "INVALID_MEDIA_BUTTON_FRAME attributes.media_button.frame.y"),
    (attributes(type: .overlay, frame: MediaButtonFrame(x: 0, y: 0, width: 10_001, height: 4)), "INVALID_MEDIA_BUTTON_FRAME attributes.media_button.frame.width"),
    (attributes(type: .overlay, frame: MediaButtonFrame(x: 0, y: 0, width: 4, height: 0)), "INVALID_MEDIA_BUTTON_FRAME attributes.media_button.frame.height"),
    (attributes(type: .default, frame: frame, tint: "red"), "INVALID_TINT_COLOR attributes.media_button.tint_color"),
    (attributes(type: .default, frame: frame, tint: "#FF880"), "INVALID_TINT_COLOR attributes.media_button.tint_color"),
    (attributes(type: .default, frame: frame, tint: "#GG8800"), "INVALID_TINT_COLOR attributes.media_button.tint_color"),
    (attributes(tint: "#FF8800FF"), "INVALID_TINT_COLOR attributes.media_button.tint_color"),
  ])
  func refusesAttributes(_ registration: ExtensionRegistration, _ expected: String) {
    do {
      try registration.validate()
      Issue.record("expected \(expected)")
    } catch {
      #expect("\(error.reason) \(error.field)" == expected)
    }
  }

  @Test(arguments: [
    attributes(0.01), attributes(10), attributes(type: .none), attributes(type: .default, frame: frame, tint: "#ff8800"),
    attributes(type: .overlay, frame: MediaButtonFrame(x: 0, y: 0, width: 10_000, height: 1), tint: "#A0b1C2"),
  ])
  func acceptsAttributes(_ registration: ExtensionRegistration) throws {
    try registration.validate()
  }

  @Test func routesGoToTheExtensionsOfTheCategorySorted() throws {
    let a = ExtensionRegistration(extensionIdentifier: "z.ext", categoryIdentifiers: ["invite", "reminder"],
                                  attributes: ExtensionAttributes(initialContentSizeRatio: 1))
    let b = ExtensionRegistration(extensionIdentifier: "a.ext", categoryIdentifiers: ["invite"])
    try a.validate()
    #expect(ExtensionRegistration.routes("invite", among: [a, b]) == ["a.ext", "z.ext"])
    #expect(ExtensionRegistration.routes("reminder", among: [a, b]) == ["z.ext"])
    #expect(ExtensionRegistration.routes("other", among: [a, b]).isEmpty)
    #expect(ExtensionRegistration.routes("", among: [a, b]).isEmpty)
  }
}
