import Foundation
import Testing
@testable import DesktopIntegration

@Suite struct DesktopEntryFileTests {
    @Test func readsTheMainGroupWithEscapesListsAndLocales() throws {
        let file = try DesktopEntryFile(text: """
            # comment
            [Desktop Entry]
            Type = Application
            Name=Tickets
            Name[de]=Karten
            Name[de_CH]=Billette
            Exec=app\\s--x %u
            X-NFC-URL-Prefixes=https://example.com/a/;https://example.com/b\\;c/;;
            NoDisplay=true
            Hidden=false

            [Desktop Action New]
            Name=Other group
            Exec=ignored
            """)
        #expect(file.string("Type") == "Application")
        #expect(file.string("Exec") == "app --x %u")
        #expect(file.list("X-NFC-URL-Prefixes") == ["https://example.com/a/", "https://example.com/b;c/"])
        #expect(file.bool("NoDisplay"))
        #expect(!file.bool("Hidden"))
        #expect(file.localized("Name", locale: "de_CH.UTF-8") == "Billette")
        #expect(file.localized("Name", locale: "de_AT.UTF-8@euro") == "Karten")
        #expect(file.localized("Name", locale: "fr_FR") == "Tickets")
        #expect(file.localized("Name", locale: nil) == "Tickets")
    }

    @Test(arguments: [
        "Type=Application",                                  // no group
        "[Desktop Entry]\nnot a key value",
        "[Desktop Entry\nType=Application",
        "[Desktop Entry]\nBad Key=1",
        "[Desktop Entry]\nType=Application\n[Desktop Entry]\nType=Link",
    ])
    func rejectsMalformedFiles(_ text: String) {
        #expect(throws: DesktopEntryError.self) { try DesktopEntryFile(text: text) }
    }
}
