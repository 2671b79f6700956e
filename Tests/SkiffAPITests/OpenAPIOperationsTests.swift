import Testing
@testable import SkiffAPI

@Suite("Reading operations from an OpenAPI document")
struct OpenAPIOperationsTests {
    let document = """
        openapi: 3.1.0
        info:
          title: Sample
          description: |
            Not an operation:
            security: []
        security:
          - bearerAuth: []
        paths:
          /v1/open:
            post:
              operationId: open
              # a comment
              security: []
              x-skiff-allowed-while-locked: true
              x-skiff-idempotency: stored-answer
              parameters:
                - $ref: '#/components/parameters/Key'
              responses:
                '204': { description: Done. }
          '/v1/items/{id}':
            parameters:
              - name: id
            get:
              operationId: readItem
              summary: 'Inherits: the document''s bearer requirement.'
            delete:
              operationId: deleteItem
              x-skiff-idempotency: 'code-replay'
              parameters:
                - name: Idempotency-Key
                  in: header
                  schema:
                    type: string
                    maxLength: 8
              security:
                - bearerAuth: []
          /v1/spaced:
            get:
              operationId: spaced
              security: [ ]
        components:
          securitySchemes:
            bearerAuth: { type: http, scheme: bearer }
          parameters:
            Key:
              name: "Idempotency-Key"
              in: header
              required: true
              schema: { type: string, minLength: 1, pattern: '^[!-~]+$' }
              description: |
                required: false
        """

    @Test("every operation with its method and path, in the document's order")
    func operations() {
        let operations = OpenAPIOperations.parse(document)
        #expect(operations.map(\.id) == ["open", "readItem", "deleteItem", "spaced"])
        #expect(operations.map(\.method) == ["post", "get", "delete", "get"])
        #expect(operations.map(\.path) == ["/v1/open", "/v1/items/{id}", "/v1/items/{id}", "/v1/spaced"])
    }

    @Test("an empty security list opens an operation; its own list or the document's closes it")
    func security() {
        let open = OpenAPIOperations.parse(document).filter(\.needsNoCredentials).map(\.id)
        #expect(open == ["open", "spaced"])
    }

    @Test("only an operation marked x-skiff-allowed-while-locked: true is allowed while locked")
    func allowedWhileLocked() {
        #expect(OpenAPIOperations.parse(document).filter(\.isAllowedWhileLocked).map(\.id) == ["open"])
    }

    @Test("an Idempotency-Key header parameter, by $ref or inline, marks an operation; required or not")
    func idempotencyKey() {
        let operations = OpenAPIOperations.parse(document)
        #expect(operations.map(\.idempotencyKey) == [.required, nil, .optional, nil])
        #expect(operations.map(\.idempotencyKeyFacets) == [
            StringFacets(minLength: 1, pattern: "^[!-~]+$"), nil, StringFacets(maxLength: 8), nil,
        ])
    }

    @Test("x-skiff-idempotency names an operation's strategy, quoted or not; an unknown name is none")
    func idempotencyStrategy() {
        #expect(OpenAPIOperations.parse(document).map(\.idempotencyStrategy) == [.storedAnswer, nil, .codeReplay, nil])
        let unknown = OpenAPIOperations.parse("""
            paths:
              /a:
                post:
                  operationId: a
                  x-skiff-idempotency: sometimes
            """)
        #expect(unknown.map(\.idempotencyStrategy) == [nil])
        #expect(IdempotencyStrategy.allCases.filter(\.keyRequired) == [.storedAnswer, .ledger])
    }

    @Test("without a document-wide requirement, an operation without its own needs no credentials")
    func noDocumentSecurity() {
        let operations = OpenAPIOperations.parse("""
            paths:
              /a:
                get:
                  operationId: a
              /b:
                get:
                  operationId: b
                  security:
                  - bearerAuth: []
            """)
        #expect(operations.map(\.needsNoCredentials) == [true, false])
    }

    @Test("Windows line ends read the same")
    func carriageReturns() {
        let crlf = document.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(OpenAPIOperations.parse(crlf) == OpenAPIOperations.parse(document))
    }

    @Test("the shipped contract is read: its operations, and the ones that need no session")
    func shippedContract() {
        let ids = SkiffContract.operations.map(\.id)
        let operationLines = SkiffContract.document.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("      operationId:") }
        #expect(ids.count == operationLines.count)
        #expect(Set(ids).count == ids.count)
        #expect(SkiffContract.unauthenticatedOperationIDs.contains("login"))
        #expect(!SkiffContract.unauthenticatedOperationIDs.contains("getMe"))
        #expect(SkiffContract.operationIDsAllowedWhileLocked == ["unlockSession", "lockSession", "logout"])
        #expect(SkiffContract.idempotencyStrategies == [
            "register": .storedAnswer, "addCard": .storedAnswer, "sendTransfer": .ledger, "createTopUp": .ledger,
            "verifyRegistration": .codeReplay, "resetPassword": .codeReplay,
        ])
        #expect(SkiffContract.idempotencyKeyFacets == StringFacets(minLength: 1, maxLength: 255, pattern: "^[!-~]+$"))
    }

    @Test("string facets: inline, on the lines under a property, or by $ref; quotes, commas and brackets inside values")
    func stringFacets() {
        let facets = OpenAPIOperations.stringFacets("""
            components:
              schemas:
                Code:
                  type: string
                  description: 'Six digits, say: it''s [sent].'
                  pattern: '^[0-9]{6}$'
                Request:
                  type: object
                  properties:
                    id: { type: string, minLength: 1, maxLength: 64, description: 'The caller''s, say [a, b].' }
                    currency: { type: string, pattern: '^[A-Z]{3}$', examples: ['USD', 'EUR'] }
                    note:
                      type: string
                      description: |
                        maxLength: 5
                      maxLength: 1000
                    code: { $ref: '#/components/schemas/Code' }
                    amount: { type: integer, maximum: 10 }
                    free: { type: string }
            """)
        #expect(facets == ["Request": [
            "id": StringFacets(minLength: 1, maxLength: 64),
            "currency": StringFacets(pattern: "^[A-Z]{3}$", example: "USD"),
            "note": StringFacets(maxLength: 1000),
            "code": StringFacets(pattern: "^[0-9]{6}$"),
        ]])
    }

    @Test("the shipped contract's request strings: a transfer's and a top-up's fields with their facets")
    func shippedStringFacets() {
        let transfer = SkiffContract.stringFacets["TransferRequest"] ?? [:]
        #expect(transfer["recipientId"] == StringFacets(minLength: 1, maxLength: 64))
        #expect(transfer["currency"] == StringFacets(pattern: "^[A-Z]{3}$", example: "USD"))
        #expect(transfer["note"]?.maxLength == 1000)
        #expect(SkiffContract.stringFacets["TopUpRequest"]?["cardId"] == StringFacets(minLength: 1, maxLength: 64))
        #expect(SkiffContract.stringFacets["RegisterRequest"]?["phoneNumber"]?.pattern?.hasPrefix("^[0-9 ().") == true)
    }
}
