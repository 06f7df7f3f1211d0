// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// Token contracts shared by the tests (test/contracts/Tokens.sol) and `lookout demo` (src/demo/DemoTokens.sol).

/// A minimal ERC-1155 (balances, approvals, single and batch transfers, mint and burn) for tests and the demo.
contract SampleErc1155 {
    mapping(uint256 => mapping(address => uint256)) public balanceOf;
    mapping(address => mapping(address => bool)) public isApprovedForAll;
    string private uri_;
    string public name;
    string public symbol;

    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);

    constructor(string memory name_, string memory symbol_, string memory u) {
        name = name_;
        symbol = symbol_;
        uri_ = u;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0xd9b67a26 || id == 0x0e89341c || id == 0x01ffc9a7;
    }

    function uri(uint256) external view returns (string memory) {
        return uri_;
    }

    function balanceOfBatch(address[] calldata owners, uint256[] calldata ids) external view returns (uint256[] memory out) {
        out = new uint256[](owners.length);
        for (uint256 i = 0; i < owners.length; i++) out[i] = balanceOf[ids[i]][owners[i]];
    }

    function setApprovalForAll(address op, bool ok) external {
        isApprovedForAll[msg.sender][op] = ok;
        emit ApprovalForAll(msg.sender, op, ok);
    }

    function mint(address to, uint256 id, uint256 value) external {
        balanceOf[id][to] += value;
        emit TransferSingle(msg.sender, address(0), to, id, value);
    }

    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata values) external {
        for (uint256 i = 0; i < ids.length; i++) balanceOf[ids[i]][to] += values[i];
        emit TransferBatch(msg.sender, address(0), to, ids, values);
    }

    function burn(address from, uint256 id, uint256 value) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "not allowed");
        balanceOf[id][from] -= value;
        emit TransferSingle(msg.sender, from, address(0), id, value);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "not allowed");
        balanceOf[id][from] -= value;
        balanceOf[id][to] += value;
        emit TransferSingle(msg.sender, from, to, id, value);
    }

    function safeBatchTransferFrom(
        address from,
        address to,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata
    ) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "not allowed");
        for (uint256 i = 0; i < ids.length; i++) {
            balanceOf[ids[i]][from] -= values[i];
            balanceOf[ids[i]][to] += values[i];
        }
        emit TransferBatch(msg.sender, from, to, ids, values);
    }
}

/// A minimal ERC-404: fungible units (18 decimals) where every whole unit held is one NFT. Emits ERC20Transfer and
/// ERC721Transfer (the events Blockscout recognises as ERC-404).
contract SampleErc404 {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public constant UNIT = 1e18;
    uint256 public totalSupply;
    uint256 public minted;
    string internal base;
    mapping(address => uint256) public erc20BalanceOf;
    mapping(uint256 => address) private owners;
    mapping(address => uint256[]) private owned;
    mapping(uint256 => uint256) private ownedIndex;

    event ERC20Transfer(address indexed from, address indexed to, uint256 amount);
    event ERC721Transfer(address indexed from, address indexed to, uint256 indexed id);

    constructor(string memory name_, string memory symbol_, string memory base_) {
        name = name_;
        symbol = symbol_;
        base = base_;
    }

    function ownerOf(uint256 id) external view returns (address o) {
        o = owners[id];
        require(o != address(0), "not minted");
    }

    function owned721(address a) external view returns (uint256[] memory) {
        return owned[a];
    }

    function tokenURI(uint256 id) public view virtual returns (string memory) {
        return string.concat(base, _toString(id));
    }

    function mintUnits(address to, uint256 units) external {
        totalSupply += units * UNIT;
        erc20BalanceOf[to] += units * UNIT;
        emit ERC20Transfer(address(0), to, units * UNIT);
        for (uint256 i = 0; i < units; i++) _give(address(0), to, ++minted);
    }

    /// Fungible transfer: whole units lost burn the sender's newest NFTs, whole units gained mint new ones.
    function transfer(address to, uint256 amount) external returns (bool) {
        uint256 fromBefore = erc20BalanceOf[msg.sender] / UNIT;
        uint256 toBefore = erc20BalanceOf[to] / UNIT;
        erc20BalanceOf[msg.sender] -= amount;
        erc20BalanceOf[to] += amount;
        emit ERC20Transfer(msg.sender, to, amount);
        uint256 fromAfter = erc20BalanceOf[msg.sender] / UNIT;
        uint256 toAfter = erc20BalanceOf[to] / UNIT;
        for (uint256 i = fromAfter; i < fromBefore; i++) _burnNewest(msg.sender);
        for (uint256 i = toBefore; i < toAfter; i++) _give(address(0), to, ++minted);
        return true;
    }

    /// NFT transfer: moves the id and one unit with it.
    function transferFrom(address from, address to, uint256 id) external {
        require(owners[id] == from && from == msg.sender, "not owner");
        erc20BalanceOf[from] -= UNIT;
        erc20BalanceOf[to] += UNIT;
        emit ERC20Transfer(from, to, UNIT);
        _take(from, id);
        _give(from, to, id);
    }

    function _give(address from, address to, uint256 id) private {
        owners[id] = to;
        ownedIndex[id] = owned[to].length;
        owned[to].push(id);
        emit ERC721Transfer(from, to, id);
    }

    function _take(address from, uint256 id) private {
        uint256 idx = ownedIndex[id];
        uint256 last = owned[from][owned[from].length - 1];
        owned[from][idx] = last;
        ownedIndex[last] = idx;
        owned[from].pop();
        delete owners[id];
    }

    function _burnNewest(address from) private {
        uint256 id = owned[from][owned[from].length - 1];
        _take(from, id);
        emit ERC721Transfer(from, address(0), id);
    }

    function _toString(uint256 v) internal pure returns (string memory) {
        if (v == 0) return "0";
        bytes memory b;
        while (v != 0) {
            b = abi.encodePacked(bytes1(uint8(48 + (v % 10))), b);
            v /= 10;
        }
        return string(b);
    }
}
