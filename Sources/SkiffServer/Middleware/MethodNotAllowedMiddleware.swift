import Hummingbird
import SkiffAPI

/// Answers a method the contract does not declare on one of its paths with 405 and an `Allow` header listing
/// the methods it does declare; the router alone would answer 404. The contract (`openapi.yaml`) is the only
/// list of methods.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each path template of the contract, split into segments, with its declared methods in upper case.
    let paths: [(segments: [Substring], methods: [String])]

    init(operations: [OpenAPIOperation] = SkiffContract.operations) {
        var paths: [(segments: [Substring], methods: [String])] = []
        for operation in operations {
            let segments = operation.path.split(separator: "/")
            let method = operation.method.uppercased()
            if let index = paths.firstIndex(where: { $0.segments == segments }) {
                paths[index].methods.append(method)
            } else {
                paths.append((segments, [method]))
            }
        }
        self.paths = paths
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let allowed = allowedMethods(path: request.uri.path) else { throw error }
            throw Problem.methodNotAllowed(allowed: allowed)
        }
    }

    /// The declared methods of the contract path that `path` matches, or nil when it matches none.
    func allowedMethods(path: String) -> [String]? {
        let segments = path.split(separator: "/")
        return paths.first { template in
            template.segments.count == segments.count
                && zip(template.segments, segments).allSatisfy { $0.first == "{" && $0.last == "}" || $0 == $1 }
        }?.methods
    }
}
