import Testing
@testable import Skiff

@Suite("Mouse setting")
struct MouseSettingTests {
    @Test("Mouse reports are on by default, and with SKIFF_NO_MOUSE empty or 0")
    func onByDefault() {
        #expect(MouseSetting.reportsMouse(noMouseFlag: false, environment: [:]))
        #expect(MouseSetting.reportsMouse(noMouseFlag: false, environment: ["SKIFF_NO_MOUSE": ""]))
        #expect(MouseSetting.reportsMouse(noMouseFlag: false, environment: ["SKIFF_NO_MOUSE": "0"]))
    }

    @Test("--no-mouse or SKIFF_NO_MOUSE=1 turns mouse reports off")
    func off() {
        #expect(!MouseSetting.reportsMouse(noMouseFlag: true, environment: [:]))
        #expect(!MouseSetting.reportsMouse(noMouseFlag: false, environment: ["SKIFF_NO_MOUSE": "1"]))
        #expect(!MouseSetting.reportsMouse(noMouseFlag: true, environment: ["SKIFF_NO_MOUSE": "0"]))
    }
}
