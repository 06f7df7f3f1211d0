// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721Enumerable} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Enumerable.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {SampleErc1155, SampleErc404} from "lookout/contracts/SampleTokens.sol";

/// ERC-721 (OpenZeppelin) with a settable base URI: tokenURI(id) = base + id.
contract TestNft is ERC721 {
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

contract TestCoin is ERC20 {
    constructor(uint256 supply) ERC20("Test Coin", "TCN") {
        _mint(msg.sender, supply);
    }
}

/// Just ERC1967Proxy, under a name of its own.
contract TestProxy is ERC1967Proxy {
    constructor(address impl) ERC1967Proxy(impl, "") {}

    function _unsafeAllowUninitialized() internal pure override returns (bool) {
        return true;
    }
}

/// A minimal ERC-1155: balances, single and batch transfers (operators allowed), mint, burn, uri with {id}.
contract Test1155 is SampleErc1155 {
    constructor(string memory u) SampleErc1155("Test Multi", "TMT", u) {}
}

contract Test404 is SampleErc404 {
    constructor(string memory base_) SampleErc404("Test Hybrid", "THY", base_) {}
}

/// Emits token events in shapes no standard allows, to check they are skipped and counted.
contract Malformed {
    function emitBad() external {
        bytes32 t = 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef;
        bytes32 batch = 0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb;
        assembly {
            // Transfer with 2 topics
            log2(0, 0, t, 1)
            // Transfer with 3 topics and 5 bytes of data
            mstore(0, 0)
            log3(0, 5, t, 1, 2)
            // TransferBatch with garbage data
            log4(0, 7, batch, 0, 1, 2)
        }
    }
}

/// ERC-721 that tells its total supply (OpenZeppelin ERC721Enumerable).
contract TestNftSupply is ERC721Enumerable {
    constructor() ERC721("Counted", "CNT") {}

    function mint(address to, uint256 id) external {
        _mint(to, id);
    }

    function burn(uint256 id) external {
        _burn(id);
    }
}
