// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {SampleErc1155, SampleErc404} from "lookout/contracts/SampleTokens.sol";

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
contract Demo1155 is SampleErc1155 {
    constructor(string memory u) SampleErc1155("Demo Multi", "DMM", u) {}
}

/// ERC-404 whose token URI is an inline JSON document (data: URI prefix + JSON).
contract Demo404 is SampleErc404 {
    constructor(string memory base_) SampleErc404("Demo Hybrid", "DHY", base_) {}

    function tokenURI(uint256 id) public view override returns (string memory) {
        string memory n = _toString(id);
        return string.concat(base, '{"name":"Demo hybrid #', n, '","image":"https://picsum.photos/seed/hybrid-', n, '/400"}');
    }
}

