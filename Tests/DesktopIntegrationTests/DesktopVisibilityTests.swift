import Testing
@testable import DesktopIntegration

/// `OnlyShowIn` / `NotShowIn` against `$XDG_CURRENT_DESKTOP` (Desktop Entry Specification).
@Suite struct DesktopVisibilityTests {
    @Test(arguments: [
        // (OnlyShowIn, NotShowIn, XDG_CURRENT_DESKTOP, shown)
        (nil, [], nil, true),                                         // no keys: shown everywhere
        (["GNOME"], [], "GNOME", true),
        (["GNOME"], [], "KDE", false),                                // OnlyShowIn elsewhere
        (["GNOME"], [], nil, false),                                  // unset: OnlyShowIn entries left out
        (["GNOME"], [], "", false),
        (["XFCE", "KDE"], [], "ubuntu:GNOME:KDE", true),              // any current name may match
        (["GNOME"], [], "gnome", false),                              // case-sensitive
        (nil, ["KDE"], "KDE", false),
        (nil, ["KDE"], "GNOME", true),
        (nil, ["KDE"], nil, true),                                    // unset: NotShowIn ignored
        (nil, ["GNOME"], "ubuntu:GNOME", false),
        ([], [], "GNOME", false),                                     // OnlyShowIn= present but empty
        // The first current name found in either list decides.
        (["Budgie"], ["GNOME"], "Budgie:GNOME", true),
        (["Budgie"], ["GNOME"], "GNOME:Budgie", false),
    ] as [([String]?, [String], String?, Bool)])
    func theSpecRule(_ only: [String]?, _ not: [String], _ current: String?, _ shown: Bool) {
        let environment = current.map { ["XDG_CURRENT_DESKTOP": $0] } ?? [:]
        let desktops = DesktopVisibility.currentDesktops(environment: environment)
        #expect(DesktopVisibility.isShown(onlyShowIn: only, notShowIn: not, currentDesktops: desktops) == shown)
    }

    @Test func currentDesktopsSplitOnColons() {
        #expect(DesktopVisibility.currentDesktops(environment: [:]).isEmpty)
        #expect(DesktopVisibility.currentDesktops(environment: ["XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]) == ["ubuntu", "GNOME"])
        #expect(DesktopVisibility.currentDesktops(environment: ["XDG_CURRENT_DESKTOP": ":KDE::"]) == ["KDE"])
    }

    /// The index leaves entries not shown in the current desktop out of URL claims; the next
    /// claimant (a shorter prefix, or another entry) takes the URL.
    @Test func theIndexHonoursOnlyShowInAndNotShowIn() throws {
        let dir = try TemporaryDataDirectories()
        try dir.write("home", "gnome-only.desktop", prefixes: "https://tickets.example/app/;", extra: "OnlyShowIn=GNOME;Unity;")
        try dir.write("home", "not-kde.desktop", prefixes: "https://tickets.example/app/kde/;", extra: "NotShowIn=KDE;")
        try dir.write("system", "fallback.desktop", prefixes: "https://tickets.example/;")
        func claimant(_ desktop: String?, _ url: String) -> String? {
            let env = desktop.map { ["XDG_CURRENT_DESKTOP": $0] } ?? [:]
            let index = DesktopEntryIndex(dataDirectories: dir.all, currentDesktops: DesktopVisibility.currentDesktops(environment: env),
                                          isExecutable: { _ in true })
            return index.claim(for: url)?.application.id
        }
        #expect(claimant("GNOME", "https://tickets.example/app/1") == "gnome-only.desktop")
        #expect(claimant("ubuntu:Unity", "https://tickets.example/app/1") == "gnome-only.desktop")
        #expect(claimant("KDE", "https://tickets.example/app/1") == "fallback.desktop")
        #expect(claimant(nil, "https://tickets.example/app/1") == "fallback.desktop")
        #expect(claimant("KDE", "https://tickets.example/app/kde/1") == "fallback.desktop")
        #expect(claimant(nil, "https://tickets.example/app/kde/1") == "not-kde.desktop")
        #expect(claimant("XFCE", "https://tickets.example/app/kde/1") == "not-kde.desktop")
    }

    /// A user entry not shown here still hides the system entry with the same desktop file ID (the
    /// first file found is the entry; the spec's visibility then applies to it).
    @Test func anEntryNotShownStillShadowsItsID() throws {
        let dir = try TemporaryDataDirectories()
        try dir.write("home", "tickets.desktop", prefixes: "https://t.example/;", extra: "OnlyShowIn=KDE;")
        try dir.write("system", "tickets.desktop", prefixes: "https://t.example/;")
        let index = DesktopEntryIndex(dataDirectories: dir.all, currentDesktops: ["GNOME"], isExecutable: { _ in true })
        #expect(index.claim(for: "https://t.example/x") == nil)
        #expect(index.problems.isEmpty)
    }
}
