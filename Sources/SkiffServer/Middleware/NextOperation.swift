import HTTPTypes
import OpenAPIRuntime

/// The rest of the chain, as a `ServerMiddleware`'s `intercept` receives it.
typealias NextOperation = @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
