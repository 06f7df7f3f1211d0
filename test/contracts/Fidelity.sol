// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Called by several accounts: a contract's counters and gas usage are its incoming transactions'. Its reverts
/// carry an Error(string), a Panic and a custom error. Value passes through it: its balance stays 0.
contract Splitter {
    event Split(address indexed a, address indexed b, uint256 value);
    error Nope(uint256 code, string why);

    function split(address payable a, address payable b) external payable {
        uint256 half = msg.value / 2;
        a.transfer(half);
        b.transfer(msg.value - half);
        emit Split(a, b, msg.value);
    }

    function refuse(uint256 code) external pure {
        revert Nope(code, "not today");
    }

    function divide(uint256 a, uint256 b) external pure returns (uint256) {
        return a / b;
    }

    function fail(string calldata why) external pure {
        revert(why);
    }
}

/// Destroys itself in its constructor: a creation that leaves no code.
contract Kamikaze {
    constructor() payable {
        selfdestruct(payable(msg.sender));
    }
}
