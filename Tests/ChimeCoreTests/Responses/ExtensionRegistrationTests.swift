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

  @Test func routesGoToTheExtensionsOfTheCategorySorted() throws {
    let a = ExtensionRegistration(extensionIdentifier: "z.ext", categoryIdentifiers: ["invite", "reminder"])
    let b = ExtensionRegistration(extensionIdentifier: "a.ext", categoryIdentifiers: ["invite"])
    try a.validate()
    #expect(ExtensionRegistration.routes("invite", among: [a, b]) == ["a.ext", "z.ext"])
    #expect(ExtensionRegistration.routes("reminder", among: [a, b]) == ["z.ext"])
    #expect(ExtensionRegistration.routes("other", among: [a, b]).isEmpty)
    #expect(ExtensionRegistration.routes("", among: [a, b]).isEmpty)
  }
}
