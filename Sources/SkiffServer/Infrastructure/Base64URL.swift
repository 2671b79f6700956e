import Foundation
import SkiffCore

extension Data {
    /// Base64 with `-` and `_` for `+` and `/`, unpadded (RFC 4648 §5). Mapped byte by byte: Foundation's three
    /// `replacingOccurrences` were most of a page cursor's cost (issue 47's profile).
    func base64URLEncodedString() -> String {
        let base64 = base64EncodedData()
        var bytes = [UInt8]()
        bytes.reserveCapacity(base64.count)
        for byte in base64 {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    init?(base64URLEncoded text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64.append("=") }
        self.init(base64Encoded: base64)
    }
}
