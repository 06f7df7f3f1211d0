// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

/// ERC-721 (OpenZeppelin) whose tokenURI is an inline JSON document.
contract DemoNft is ERC721 {
    string private base;

    constructor(string memory name_, string memory symbol_, string memory base_) ERC721(name_, symbol_) {
        base = base_;
    }

    function setBase(string memory base_) external {
        base = base_;
    }

    function _baseURI() internal view override returns (string memory) {
        return base;
    }

    /// Self-contained metadata (a data: URI), so the demo needs no metadata server.
    function tokenURI(uint256 id) public view override returns (string memory) {
        _requireOwned(id);
        string memory n = Strings.toString(id);
        return string.concat(
            'data:application/json;utf8,{"name":"Lookout Demo #', n,
            '","description":"A token of the lookout demo","image":"https://picsum.photos/seed/lookout-', n,
            '/400","external_url":"https://github.com/","attributes":[{"trait_type":"number","value":', n, "}]}"
        );
    }

    function mint(address to, uint256 id) external {
        _mint(to, id);
    }

    function mintMany(address to, uint256 first, uint256 count) external {
        for (uint256 i = 0; i < count; i++) _mint(to, first + i);
    }

    function burn(uint256 id) external {
        _burn(id);
    }
}

contract DemoCoin is ERC20 {
    constructor(uint256 supply) ERC20("Demo Coin", "DMC") {
        _mint(msg.sender, supply);
    }
}

/// A minimal ERC-1155: balances, single and batch transfers (operators allowed), mint, burn, uri with {id}.
contract Demo1155 {
    mapping(uint256 => mapping(address => uint256)) public balanceOf;
    mapping(address => mapping(address => bool)) public isApprovedForAll;
    string private uri_;

    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);

    constructor(string memory u) {
        uri_ = u;
    }

    function name() external pure returns (string memory) {
        return "Demo Multi";
    }

    function symbol() external pure returns (string memory) {
        return "DMM";
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
contract Demo404 {
    string public name = "Demo Hybrid";
    string public symbol = "DHY";
    uint8 public constant decimals = 18;
    uint256 public constant UNIT = 1e18;
    uint256 public totalSupply;
    uint256 public minted;
    string private base;
    mapping(address => uint256) public erc20BalanceOf;
    mapping(uint256 => address) private owners;
    mapping(address => uint256[]) private owned;
    mapping(uint256 => uint256) private ownedIndex;

    event ERC20Transfer(address indexed from, address indexed to, uint256 amount);
    event ERC721Transfer(address indexed from, address indexed to, uint256 indexed id);

    constructor(string memory base_) {
        base = base_;
    }

    function ownerOf(uint256 id) external view returns (address o) {
        o = owners[id];
        require(o != address(0), "not minted");
    }

    function owned721(address a) external view returns (uint256[] memory) {
        return owned[a];
    }

    function tokenURI(uint256 id) external view returns (string memory) {
        string memory n = _toString(id);
        return string.concat(base, '{"name":"Demo hybrid #', n, '","image":"https://picsum.photos/seed/hybrid-', n, '/400"}');
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

    function _toString(uint256 v) private pure returns (string memory) {
        if (v == 0) return "0";
        bytes memory b;
        while (v != 0) {
            b = abi.encodePacked(bytes1(uint8(48 + (v % 10))), b);
            v /= 10;
        }
        return string(b);
    }
}

