/**
 * The verification benchmark's corpus: our own Solidity sources of several sizes, OpenZeppelin tokens flattened
 * from node_modules into standard JSON sources, a generated contract with many functions, a library user and a
 * factory (two auxdata). Each entry is one standard JSON input and the contract to deploy from it.
 */
import { readFileSync } from "node:fs";
import { posix } from "node:path";
import { packagePath } from "../src/util/package-root.js";

export type CorpusEntry = {
  name: string;
  /** Installed solc-js version prefix, e.g. "0.8.26". */
  version: string;
  sources: Record<string, string>;
  settings: Record<string, unknown>;
  /** The contract deployed and verified. */
  contract: string;
  /**
   * Constructor arguments of the first and third deployment, and of the second (different when the contract
   * takes any, so the second address has other creation code than the stored one). Values for viem's encoder.
   */
  args?: { first: unknown[]; second: unknown[] };
  /** The runtime holds another contract's code: two auxdata, a second compilation by design. */
  severalAuxdata?: boolean;
  /** Deploys this contract of the same input first and links it (external library). */
  library?: string;
};

const OPT = { optimizer: { enabled: true, runs: 200 } };
const OWNER = "0x00000000000000000000000000000000000000aa";
const OTHER = "0x00000000000000000000000000000000000000bb";

/** An OpenZeppelin file and everything it imports, keyed by their import names (the remapping-free layout). */
function openZeppelin(...units: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (unit: string) => {
    if (out[unit] !== undefined) return;
    const text = readFileSync(packagePath(`node_modules/${unit}`), "utf8");
    out[unit] = text;
    for (const m of text.matchAll(/^\s*import\s+(?:[^"';]*\s+from\s+)?["']([^"']+)["']/gm)) {
      const target = m[1]!;
      visit(target.startsWith(".") ? posix.normalize(posix.join(posix.dirname(unit), target)) : target);
    }
  };
  for (const u of units) visit(u);
  return out;
}

const OZ = "@openzeppelin/contracts";

/** A contract of `n` public functions over a few storage shapes (dispatcher and code size grow with n). */
function generated(n: number, pragma = "^0.8.0"): string {
  const fns: string[] = [];
  for (let i = 0; i < n; i++) {
    switch (i % 4) {
      case 0:
        fns.push(
          `    function set${i}(uint256 v) external { values[${i}] = v + ${i}; emit Changed(${i}, v); }`,
        );
        break;
      case 1:
        fns.push(
          `    function get${i}(uint256 k) external view returns (uint256) { return values[k] * ${i + 1}; }`,
        );
        break;
      case 2:
        fns.push(
          `    function push${i}(address a) external { owners[a] += ${i}; require(owners[a] > ${i}, "g${i}"); }`,
        );
        break;
      default:
        fns.push(
          `    function hash${i}(bytes calldata d) external pure returns (bytes32) { return keccak256(abi.encodePacked(d, uint256(${i}))); }`,
        );
    }
  }
  return `// SPDX-License-Identifier: MIT
pragma solidity ${pragma};
contract Generated${n} {
    mapping(uint256 => uint256) public values;
    mapping(address => uint256) public owners;
    event Changed(uint256 indexed slot, uint256 value);
${fns.join("\n")}
}
`;
}

const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Counter {
    uint256 public count;
    function inc() external { count += 1; }
}
`;

const STORAGE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract SimpleStorage {
    uint256 public value;
    string public label;
    address public owner;
    event Set(uint256 v);
    constructor(uint256 v, string memory l) { value = v; label = l; owner = msg.sender; }
    function set(uint256 v) external { require(msg.sender == owner, "owner"); value = v; emit Set(v); }
    function rename(string calldata l) external { require(msg.sender == owner, "owner"); label = l; }
}
`;

const IMMUTABLES = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract WithImmutables {
    uint256 public immutable v;
    address public immutable owner;
    bytes32 public immutable salt;
    constructor(uint256 x) { v = x; owner = msg.sender; salt = keccak256(abi.encode(x, block.chainid)); }
    function mixed(uint256 y) external view returns (bytes32) { return keccak256(abi.encode(salt, v + y)); }
}
`;

const LIBRARY = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
library MathLib {
    function twice(uint256 v) external pure returns (uint256) { return v * 2; }
    function clamp(uint256 v, uint256 lo, uint256 hi) external pure returns (uint256) {
        return v < lo ? lo : v > hi ? hi : v;
    }
}
contract UsesLib {
    uint256 public last;
    function go(uint256 v) external returns (uint256) { last = MathLib.clamp(MathLib.twice(v), 10, 1000); return last; }
}
`;

const FACTORY = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Child {
    uint256 public x;
    constructor(uint256 v) { x = v; }
}
contract Factory {
    address[] public made;
    function make(uint256 v) external returns (address c) { c = address(new Child(v)); made.push(c); }
    function make2(bytes32 salt, uint256 v) external returns (address c) {
        c = address(new Child{salt: salt}(v)); made.push(c);
    }
}
`;

const WALLET = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract MultiSig {
    struct Tx { address to; uint256 value; bytes data; bool executed; uint256 confirmations; }
    address[] public owners;
    mapping(address => bool) public isOwner;
    uint256 public required;
    Tx[] public txs;
    mapping(uint256 => mapping(address => bool)) public confirmed;
    event Submit(uint256 indexed id);
    event Confirm(address indexed owner, uint256 indexed id);
    event Execute(uint256 indexed id);
    modifier onlyOwner() { require(isOwner[msg.sender], "not owner"); _; }
    constructor(address[] memory _owners, uint256 _required) {
        require(_owners.length > 0 && _required > 0 && _required <= _owners.length, "bad config");
        for (uint256 i = 0; i < _owners.length; i++) {
            require(_owners[i] != address(0) && !isOwner[_owners[i]], "bad owner");
            isOwner[_owners[i]] = true;
            owners.push(_owners[i]);
        }
        required = _required;
    }
    receive() external payable {}
    function submit(address to, uint256 value, bytes calldata data) external onlyOwner returns (uint256 id) {
        id = txs.length;
        txs.push(Tx(to, value, data, false, 0));
        emit Submit(id);
    }
    function confirm(uint256 id) external onlyOwner {
        require(id < txs.length && !txs[id].executed && !confirmed[id][msg.sender], "cannot confirm");
        confirmed[id][msg.sender] = true;
        txs[id].confirmations += 1;
        emit Confirm(msg.sender, id);
    }
    function execute(uint256 id) external onlyOwner {
        Tx storage t = txs[id];
        require(!t.executed && t.confirmations >= required, "cannot execute");
        t.executed = true;
        (bool ok, ) = t.to.call{value: t.value}(t.data);
        require(ok, "call failed");
        emit Execute(id);
    }
    function count() external view returns (uint256) { return txs.length; }
}
`;

const LEGACY_TOKEN = `// SPDX-License-Identifier: MIT
pragma solidity ^0.7.0;
library SafeMath {
    function add(uint256 a, uint256 b) internal pure returns (uint256) { uint256 c = a + b; require(c >= a, "add"); return c; }
    function sub(uint256 a, uint256 b) internal pure returns (uint256) { require(b <= a, "sub"); return a - b; }
}
contract LegacyToken {
    using SafeMath for uint256;
    string public name;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    constructor(string memory n, uint256 supply) { name = n; totalSupply = supply; balanceOf[msg.sender] = supply; }
    function transfer(address to, uint256 v) external returns (bool) {
        balanceOf[msg.sender] = balanceOf[msg.sender].sub(v); balanceOf[to] = balanceOf[to].add(v);
        emit Transfer(msg.sender, to, v); return true;
    }
    function approve(address s, uint256 v) external returns (bool) { allowance[msg.sender][s] = v; emit Approval(msg.sender, s, v); return true; }
    function transferFrom(address f, address to, uint256 v) external returns (bool) {
        allowance[f][msg.sender] = allowance[f][msg.sender].sub(v);
        balanceOf[f] = balanceOf[f].sub(v); balanceOf[to] = balanceOf[to].add(v);
        emit Transfer(f, to, v); return true;
    }
}
`;

const UTILS_USER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {Strings} from "${OZ}/utils/Strings.sol";
import {Math} from "${OZ}/utils/math/Math.sol";
import {ECDSA} from "${OZ}/utils/cryptography/ECDSA.sol";
import {MerkleProof} from "${OZ}/utils/cryptography/MerkleProof.sol";
contract Utilities {
    using Strings for uint256;
    bytes32 public root;
    constructor(bytes32 r) { root = r; }
    function describe(uint256 a, uint256 b) external pure returns (string memory) {
        return string.concat(Math.sqrt(a).toString(), "/", Math.mulDiv(a, b, 7).toHexString());
    }
    function signer(bytes32 h, bytes calldata sig) external pure returns (address) { return ECDSA.recover(h, sig); }
    function member(bytes32[] calldata proof, bytes32 leaf) external view returns (bool) {
        return MerkleProof.verify(proof, root, leaf);
    }
}
`;

const tokenSource = (imports: string, head: string, body: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
${imports}
${head} {
${body}
}
`;

const ERC20_TOKEN = tokenSource(
  `import {ERC20} from "${OZ}/token/ERC20/ERC20.sol";\nimport {Ownable} from "${OZ}/access/Ownable.sol";`,
  "contract BenchToken is ERC20, Ownable",
  `    constructor(string memory n, address owner) ERC20(n, "BT") Ownable(owner) { _mint(owner, 1e24); }
    function mint(address to, uint256 v) external onlyOwner { _mint(to, v); }`,
);

const ERC20_VOTES = tokenSource(
  `import {ERC20} from "${OZ}/token/ERC20/ERC20.sol";
import {ERC20Permit} from "${OZ}/token/ERC20/extensions/ERC20Permit.sol";
import {ERC20Votes} from "${OZ}/token/ERC20/extensions/ERC20Votes.sol";
import {Nonces} from "${OZ}/utils/Nonces.sol";`,
  "contract VotesToken is ERC20, ERC20Permit, ERC20Votes",
  `    constructor(string memory n) ERC20(n, "VT") ERC20Permit(n) { _mint(msg.sender, 1e24); }
    function _update(address f, address t, uint256 v) internal override(ERC20, ERC20Votes) { super._update(f, t, v); }
    function nonces(address o) public view override(ERC20Permit, Nonces) returns (uint256) { return super.nonces(o); }`,
);

const ERC20_PAUSABLE = tokenSource(
  `import {ERC20} from "${OZ}/token/ERC20/ERC20.sol";
import {ERC20Pausable} from "${OZ}/token/ERC20/extensions/ERC20Pausable.sol";
import {AccessControl} from "${OZ}/access/AccessControl.sol";`,
  "contract PausableToken is ERC20, ERC20Pausable, AccessControl",
  `    bytes32 public constant PAUSER = keccak256("PAUSER");
    constructor(address admin) ERC20("Pausable", "PT") { _grantRole(DEFAULT_ADMIN_ROLE, admin); _grantRole(PAUSER, admin); }
    function pause() external onlyRole(PAUSER) { _pause(); }
    function unpause() external onlyRole(PAUSER) { _unpause(); }
    function _update(address f, address t, uint256 v) internal override(ERC20, ERC20Pausable) { super._update(f, t, v); }`,
);

const ERC721_TOKEN = tokenSource(
  `import {ERC721} from "${OZ}/token/ERC721/ERC721.sol";\nimport {Ownable} from "${OZ}/access/Ownable.sol";`,
  "contract BenchNft is ERC721, Ownable",
  `    uint256 private next;
    constructor(address owner) ERC721("BenchNft", "BN") Ownable(owner) {}
    function safeMint(address to) external onlyOwner returns (uint256 id) { id = next++; _safeMint(to, id); }`,
);

const ERC721_FULL = tokenSource(
  `import {ERC721} from "${OZ}/token/ERC721/ERC721.sol";
import {ERC721Enumerable} from "${OZ}/token/ERC721/extensions/ERC721Enumerable.sol";
import {ERC721URIStorage} from "${OZ}/token/ERC721/extensions/ERC721URIStorage.sol";
import {Ownable} from "${OZ}/access/Ownable.sol";`,
  "contract FullNft is ERC721, ERC721Enumerable, ERC721URIStorage, Ownable",
  `    uint256 private next;
    constructor(address owner) ERC721("FullNft", "FN") Ownable(owner) {}
    function safeMint(address to, string calldata uri) external onlyOwner returns (uint256 id) {
        id = next++; _safeMint(to, id); _setTokenURI(id, uri);
    }
    function _update(address to, uint256 id, address auth) internal override(ERC721, ERC721Enumerable) returns (address) {
        return super._update(to, id, auth);
    }
    function _increaseBalance(address a, uint128 v) internal override(ERC721, ERC721Enumerable) { super._increaseBalance(a, v); }
    function tokenURI(uint256 id) public view override(ERC721, ERC721URIStorage) returns (string memory) { return super.tokenURI(id); }
    function supportsInterface(bytes4 i) public view override(ERC721, ERC721Enumerable, ERC721URIStorage) returns (bool) {
        return super.supportsInterface(i);
    }`,
);

const ERC1155_TOKEN = tokenSource(
  `import {ERC1155} from "${OZ}/token/ERC1155/ERC1155.sol";\nimport {Ownable} from "${OZ}/access/Ownable.sol";`,
  "contract BenchMulti is ERC1155, Ownable",
  `    constructor(string memory uri, address owner) ERC1155(uri) Ownable(owner) {}
    function mint(address to, uint256 id, uint256 v) external onlyOwner { _mint(to, id, v, ""); }`,
);

const VAULT = tokenSource(
  `import {ERC20} from "${OZ}/token/ERC20/ERC20.sol";
import {IERC20} from "${OZ}/token/ERC20/IERC20.sol";
import {ERC4626} from "${OZ}/token/ERC20/extensions/ERC4626.sol";`,
  "contract BenchVault is ERC4626",
  '    constructor(IERC20 asset) ERC20("Vault", "VLT") ERC4626(asset) {}',
);

const files = (main: string, text: string, extra: Record<string, string> = {}) => ({
  [main]: text,
  ...extra,
});

export function corpus(): CorpusEntry[] {
  const oz = (file: string, text: string, ...units: string[]) => files(file, text, openZeppelin(...units));
  const gen = (n: number, version = "0.8.26", settings: Record<string, unknown> = OPT): CorpusEntry => ({
    name: `generated-${n}fn${version === "0.8.26" ? "" : `-${version}`}`,
    version,
    sources: files(`Generated${n}.sol`, generated(n)),
    settings,
    contract: `Generated${n}`,
  });
  return [
    // solc 0.8.26
    {
      name: "counter",
      version: "0.8.26",
      sources: files("Counter.sol", COUNTER),
      settings: OPT,
      contract: "Counter",
    },
    {
      name: "storage-args",
      version: "0.8.26",
      sources: files("SimpleStorage.sol", STORAGE),
      settings: OPT,
      contract: "SimpleStorage",
      args: { first: [42n, "first"], second: [7n, "second deployment"] },
    },
    {
      name: "immutables",
      version: "0.8.26",
      sources: files("WithImmutables.sol", IMMUTABLES),
      settings: OPT,
      contract: "WithImmutables",
      args: { first: [1n], second: [2n] },
    },
    {
      name: "library-user",
      version: "0.8.26",
      sources: files("Lib.sol", LIBRARY),
      settings: OPT,
      contract: "UsesLib",
      library: "MathLib",
    },
    {
      name: "factory",
      version: "0.8.26",
      sources: files("Factory.sol", FACTORY),
      settings: OPT,
      contract: "Factory",
      severalAuxdata: true,
    },
    {
      name: "multisig-no-optimizer",
      version: "0.8.26",
      sources: files("MultiSig.sol", WALLET),
      settings: { optimizer: { enabled: false, runs: 200 } },
      contract: "MultiSig",
      args: { first: [[OWNER, OTHER], 1n], second: [[OTHER], 1n] },
    },
    {
      name: "via-ir",
      version: "0.8.26",
      sources: files("SimpleStorage.sol", STORAGE),
      settings: { ...OPT, viaIR: true },
      contract: "SimpleStorage",
      args: { first: [1n, "ir"], second: [2n, "ir 2"] },
    },
    gen(2),
    gen(8),
    gen(24),
    gen(64),
    gen(128),
    gen(200, "0.8.26", { optimizer: { enabled: true, runs: 1 } }),
    {
      name: "oz-utilities",
      version: "0.8.26",
      sources: oz(
        "Utilities.sol",
        UTILS_USER,
        `${OZ}/utils/Strings.sol`,
        `${OZ}/utils/math/Math.sol`,
        `${OZ}/utils/cryptography/ECDSA.sol`,
        `${OZ}/utils/cryptography/MerkleProof.sol`,
      ),
      settings: OPT,
      contract: "Utilities",
      args: { first: [`0x${"11".repeat(32)}`], second: [`0x${"22".repeat(32)}`] },
    },
    {
      name: "oz-erc20",
      version: "0.8.26",
      sources: oz("BenchToken.sol", ERC20_TOKEN, `${OZ}/token/ERC20/ERC20.sol`, `${OZ}/access/Ownable.sol`),
      settings: OPT,
      contract: "BenchToken",
      args: { first: ["Bench", OWNER], second: ["Bench Two", OTHER] },
    },
    {
      name: "oz-erc20-votes",
      version: "0.8.26",
      sources: oz(
        "VotesToken.sol",
        ERC20_VOTES,
        `${OZ}/token/ERC20/ERC20.sol`,
        `${OZ}/token/ERC20/extensions/ERC20Permit.sol`,
        `${OZ}/token/ERC20/extensions/ERC20Votes.sol`,
        `${OZ}/utils/Nonces.sol`,
      ),
      settings: OPT,
      contract: "VotesToken",
      args: { first: ["Votes"], second: ["Votes Two"] },
    },
    {
      name: "oz-erc20-pausable-roles",
      version: "0.8.26",
      sources: oz(
        "PausableToken.sol",
        ERC20_PAUSABLE,
        `${OZ}/token/ERC20/ERC20.sol`,
        `${OZ}/token/ERC20/extensions/ERC20Pausable.sol`,
        `${OZ}/access/AccessControl.sol`,
      ),
      settings: OPT,
      contract: "PausableToken",
      args: { first: [OWNER], second: [OTHER] },
    },
    {
      name: "oz-erc721",
      version: "0.8.26",
      sources: oz("BenchNft.sol", ERC721_TOKEN, `${OZ}/token/ERC721/ERC721.sol`, `${OZ}/access/Ownable.sol`),
      settings: OPT,
      contract: "BenchNft",
      args: { first: [OWNER], second: [OTHER] },
    },
    {
      name: "oz-erc721-enumerable-uri",
      version: "0.8.26",
      sources: oz(
        "FullNft.sol",
        ERC721_FULL,
        `${OZ}/token/ERC721/ERC721.sol`,
        `${OZ}/token/ERC721/extensions/ERC721Enumerable.sol`,
        `${OZ}/token/ERC721/extensions/ERC721URIStorage.sol`,
        `${OZ}/access/Ownable.sol`,
      ),
      settings: OPT,
      contract: "FullNft",
      args: { first: [OWNER], second: [OTHER] },
    },
    {
      name: "oz-erc1155",
      version: "0.8.26",
      sources: oz(
        "BenchMulti.sol",
        ERC1155_TOKEN,
        `${OZ}/token/ERC1155/ERC1155.sol`,
        `${OZ}/access/Ownable.sol`,
      ),
      settings: OPT,
      contract: "BenchMulti",
      args: { first: ["https://x/{id}", OWNER], second: ["https://y/{id}", OTHER] },
    },
    {
      name: "oz-erc4626",
      version: "0.8.26",
      sources: oz(
        "BenchVault.sol",
        VAULT,
        `${OZ}/token/ERC20/ERC20.sol`,
        `${OZ}/token/ERC20/IERC20.sol`,
        `${OZ}/token/ERC20/extensions/ERC4626.sol`,
      ),
      settings: OPT,
      contract: "BenchVault",
      args: { first: [OWNER], second: [OTHER] },
    },
    // solc 0.8.24, another EVM version
    {
      name: "oz-erc20-0.8.24-paris",
      version: "0.8.24",
      sources: oz("BenchToken.sol", ERC20_TOKEN, `${OZ}/token/ERC20/ERC20.sol`, `${OZ}/access/Ownable.sol`),
      settings: { ...OPT, evmVersion: "paris" },
      contract: "BenchToken",
      args: { first: ["Paris", OWNER], second: ["Paris Two", OTHER] },
    },
    gen(32, "0.8.24"),
    // solc 0.7.6
    {
      name: "legacy-token-0.7.6",
      version: "0.7.6",
      sources: files("LegacyToken.sol", LEGACY_TOKEN),
      settings: OPT,
      contract: "LegacyToken",
      args: { first: ["Legacy", 1000n], second: ["Legacy Two", 2000n] },
    },
  ];
}
