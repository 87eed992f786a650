#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the seed corpora of the fuzz targets (Tests/fuzz/corpus/TARGET/) from the tests:
every JSON string literal of the C API test, sorted by what it is, the texts of the
model-parity fixture, the app vocabulary of VocabularyTests.swift, and a few ledger
shapes. Run once when the tests change; the seeds are committed (small files)."""
import hashlib, json, pathlib, re

root = pathlib.Path(__file__).resolve().parents[2]
out = root / "Tests" / "fuzz" / "corpus"


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    folder = out / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ("seed-" + hashlib.sha1(data).hexdigest()[:16])).write_bytes(data)


def c_literals(path):
    """Each run of adjacent C string literals of a C file, unescaped."""
    text = path.read_text()
    for run in re.finditer(r'(?:"(?:[^"\\\n]|\\.)*"\s*)+', text):
        parts = re.findall(r'"((?:[^"\\\n]|\\.)*)"', run.group(0))
        yield bytes("".join(parts), "utf-8").decode("unicode_escape").encode("latin-1")


documents = []
for literal in c_literals(root / "Tests" / "c" / "api_test.c"):
    try:
        value = json.loads(literal)
    except ValueError:
        continue
    documents.append((literal, value))

for literal, value in documents:
    put("json", literal)
    if not isinstance(value, dict):
        continue
    if "intent" in value:
        put("intent", literal)
        put("answers", literal)
    if {"contacts", "accounts", "billPayees", "bills"} & value.keys():
        put("directory", literal)
    if "home" in value:
        put("config", json.dumps({k: v for k, v in value.items() if k != "home"} | {"home": "h"}))
    if "parameter" in value:
        put("json", literal)

# Dialog answers: an intent line, then one answer per line.
answers = [
    ('{"intent": "send_payment", "payee": {"name": "John"}, "currencyAmount": {"amount": "50", "currency": "USD"}}',
     ['{"parameter": "payee", "choose": "john-baily"}', '{"parameter": "payee", "choose": "jb-mobile"}']),
    ('{"intent": "pay_bill", "billPayee": {"name": "Electric Company"}}',
     ['{"parameter": "billPayee", "choose": "ec-main"}', '{"parameter": "transactionAmount", "confirm": true}']),
    ('{"intent": "send_payment", "payee": {"name": "Tim"}}',
     ['{"parameter": "payee", "confirm": true}', '{"parameter": "currencyAmount", "value": {"amount": "1", "currency": "USD"}}']),
    ('{"intent": "transfer_money", "fromAccount": {"name": "checking"}, "toAccount": {"name": "savings"}}',
     ['{"parameter": "transactionAmount", "value": {"amount": {"amount": "200", "currency": "USD"}}}']),
]
for intent, lines in answers:
    put("answers", "\n".join([intent] + lines))

for line in (root / "Tests" / "fixtures" / "model-parity.jsonl").read_text().splitlines()[:60]:
    put("parse", json.loads(line)["text"])
for text in ["send $25 to Tim Cook", "Send $50 to John", "Pay my Electric Company bill",
             "Transfer $200 from checking to savings", "What's my Safe-to-Spend?", "¿Cuánto debo de luz?",
             "pay john 1,000.50 EUR tomorrow for pizza", "request 20 dollars from Tim"]:
    put("parse", text)

swift = (root / "Tests" / "TenderCoreTests" / "VocabularyTests.swift").read_text()
app = re.search(r'let appJSON = """\n(.*?)"""', swift, re.S).group(1)
put("vocabulary", app)
put("vocabulary", '{"parameterVocabularies": [], "examples": []}')
put("config", json.dumps({"home": "h", "authentication": {"restrictedIntents": []}, "vocabulary": json.loads(app)}))

# Verifier: 0 checkpoint, 1 trusted key, 2 a ledger row's JWS, 3 its hash.
jws = "eyJhbGciOiJFZERTQSIsImtpZCI6IngifQ.eyJzZXF1ZW5jZSI6Mn0.c2ln"
put("verify", b"\x00" + jws.encode())
put("verify", b"\x01-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n")
put("verify", b'\x01{"kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}')
put("verify", b"\x02" + jws.encode())
put("verify", b"\x03" + b"0" * 64)
