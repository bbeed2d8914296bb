package org.openbook.embed;

/** The languages OpenBook has a dense route for. */
public enum Language {
  /** Chinese, Simplified or Traditional (bge-small-zh-v1.5 after Traditional→Simplified folding). */
  ZH,
  /** English, and any text without Chinese (bge-small-en-v1.5). */
  EN
}
