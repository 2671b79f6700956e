// swift-tools-version: 6.1
// The OpenAPI generator, kept out of the app's build (docs/decisions/0202-generated-contract-code-committed.md):
// scripts/openapi-generate.sh runs it to write Sources/SkiffAPI/Generated from the contract, and CI checks that what
// is committed is what it writes.
import PackageDescription

let package = Package(
    name: "OpenAPIGenerate",
    dependencies: [
        // The same version as the generated code's runtime expects (Package.swift's swift-openapi-runtime).
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
    ],
    targets: []
)
