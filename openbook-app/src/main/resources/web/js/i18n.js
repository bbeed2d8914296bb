// Interface strings in English and Chinese. The language comes from localStorage (the user's
// switch), else the browser's language list; everything visible goes through t().

const STRINGS = {
  en: {
    'app.tagline': 'Answers from your company knowledge base',
    'signin.title': 'Sign in',
    'signin.hint': 'Use the access token your administrator gave you.',
    'signin.token': 'Access token',
    'signin.submit': 'Sign in',
    'signin.invalid': 'This token was not accepted. Check it and try again.',
    'signin.unreachable': 'The server cannot be reached. Try again in a moment.',
    'nav.newChat': 'New chat',
    'nav.library': 'Document library',
    'nav.chat': 'Chat',
    'nav.history': 'History',
    'nav.noHistory': 'No conversations yet',
    'nav.menu': 'Open menu',
    'nav.closeMenu': 'Close menu',
    'user.reads': 'Can read',
    'user.writer': 'Editor',
    'user.signOut': 'Sign out',
    'lang.label': 'Language',
    'conv.rename': 'Rename',
    'conv.delete': 'Delete',
    'conv.actions': 'Actions for “{title}”',
    'conv.renameTitle': 'Rename conversation',
    'conv.newTitle': 'New title',
    'conv.deleteTitle': 'Delete conversation?',
    'conv.deleteBody': '“{title}” and its answers will be deleted. This cannot be undone.',
    'conv.untitled': 'New conversation',
    'chat.greeting': 'Hello, {name}',
    'chat.empty': 'Ask a question about your documents. Answers cite their sources.',
    'chat.placeholder': 'Ask a question…  (Enter to send, Shift+Enter for a new line)',
    'chat.question': 'Your question',
    'chat.send': 'Send',
    'chat.stop': 'Stop',
    'chat.disclaimer': 'Answers are drawn only from documents you may read. Check the sources.',
    'chat.you': 'You',
    'chat.assistant': 'OpenBook',
    'chat.thinking': 'Searching your documents…',
    'chat.reading': 'Reading {n} sources…',
    'chat.copy': 'Copy answer',
    'chat.copied': 'Copied',
    'chat.regenerate': 'Regenerate',
    'chat.good': 'Good answer',
    'chat.bad': 'Bad answer',
    'chat.details': 'Details',
    'chat.feedbackPrompt': 'Tell us more (optional)',
    'chat.feedbackSend': 'Send',
    'chat.feedbackThanks': 'Thanks for your feedback',
    'chat.feedbackFailed': 'Feedback could not be saved',
    'chat.refused': 'No answer in the documents you can read',
    'chat.refusedHint': 'Try other words, or ask someone with access to more departments.',
    'chat.failed': 'The answer could not be generated',
    'chat.failedHint': 'The language model did not respond. Try again later.',
    'chat.truncated': 'This answer is incomplete',
    'chat.stopped': 'Stopped — the answer is incomplete',
    'chat.error': 'Something went wrong',
    'chat.errorNoFinal': 'The connection ended before the answer was complete.',
    'chat.errorRequest': 'Reference: {id}',
    'chat.conversationGone': 'This conversation no longer exists; a new one was started.',
    'chat.loadFailed': 'This conversation could not be loaded.',
    'chat.sources': 'Sources',
    'chat.open': 'Open',
    'chat.unsupported': 'Not supported by the passage',
    'chat.page': 'Page {n}',
    'details.k': 'Passages (k)',
    'details.status': 'Status',
    'details.generator': 'Generator',
    'details.retrieval': 'Retrieval',
    'details.generation': 'Generation',
    'details.bestScore': 'Best dense score',
    'details.threshold': 'Threshold',
    'details.rewritten': 'Asked as',
    'details.reason': 'Reason',
    'details.warnings': 'Warnings',
    'details.invalid': 'Removed citations to sources not given: {list}',
    'details.unsupportedList': 'Citations not supported by their passage: {list}',
    'details.uncited': '{n} sentence(s) without a citation',
    'details.ms': '{n} ms',
    'section.close': 'Close',
    'section.loading': 'Loading…',
    'section.dept': 'Department',
    'lib.title': 'Document library',
    'lib.subtitle': 'Documents the assistant answers from. Only departments you can read are listed.',
    'lib.drop': 'Drop files here or',
    'lib.browse': 'choose files',
    'lib.formats': 'Markdown, text, PDF, Word, Excel, PowerPoint, HTML',
    'lib.folder': 'Department folder',
    'lib.folderNone': 'Public (no folder)',
    'lib.name': 'Document',
    'lib.dept': 'Department',
    'lib.chunks': 'Passages',
    'lib.chunksUnit': 'passages',
    'lib.updated': 'Updated',
    'lib.actions': 'Actions',
    'lib.delete': 'Delete',
    'lib.deleteTitle': 'Delete document?',
    'lib.deleteBody': '“{title}” will be removed from the knowledge base. This cannot be undone.',
    'lib.empty': 'No documents yet. Upload the first one above.',
    'lib.count': '{n} documents',
    'lib.uploading': 'Uploading {name}',
    'lib.queued': 'Waiting to be indexed',
    'lib.indexing': 'Indexing {done} of {total}',
    'lib.done': 'Indexed: {added} added, {updated} updated',
    'lib.failed': 'Upload failed: {message}',
    'lib.deleted': 'Deleted “{title}”',
    'lib.loadFailed': 'The document list could not be loaded.',
    'common.cancel': 'Cancel',
    'common.save': 'Save',
    'common.delete': 'Delete',
    'common.never': '—',
  },
  zh: {
    'app.tagline': '基于公司知识库的智能问答',
    'signin.title': '登录',
    'signin.hint': '请输入管理员发给您的访问令牌。',
    'signin.token': '访问令牌',
    'signin.submit': '登录',
    'signin.invalid': '令牌无效，请检查后重试。',
    'signin.unreachable': '无法连接服务器，请稍后重试。',
    'nav.newChat': '新对话',
    'nav.library': '文档库',
    'nav.chat': '对话',
    'nav.history': '历史对话',
    'nav.noHistory': '暂无对话',
    'nav.menu': '打开菜单',
    'nav.closeMenu': '关闭菜单',
    'user.reads': '可读部门',
    'user.writer': '编辑者',
    'user.signOut': '退出登录',
    'lang.label': '语言',
    'conv.rename': '重命名',
    'conv.delete': '删除',
    'conv.actions': '“{title}”的操作',
    'conv.renameTitle': '重命名对话',
    'conv.newTitle': '新标题',
    'conv.deleteTitle': '删除对话？',
    'conv.deleteBody': '将删除“{title}”及其中的回答，且无法恢复。',
    'conv.untitled': '新对话',
    'chat.greeting': '您好，{name}',
    'chat.empty': '就您的文档提问，回答会注明出处。',
    'chat.placeholder': '输入问题…（Enter 发送，Shift+Enter 换行）',
    'chat.question': '您的问题',
    'chat.send': '发送',
    'chat.stop': '停止',
    'chat.disclaimer': '回答仅来自您有权阅读的文档，请核对出处。',
    'chat.you': '我',
    'chat.assistant': 'OpenBook',
    'chat.thinking': '正在检索文档…',
    'chat.reading': '正在阅读 {n} 个出处…',
    'chat.copy': '复制回答',
    'chat.copied': '已复制',
    'chat.regenerate': '重新生成',
    'chat.good': '回答有帮助',
    'chat.bad': '回答没有帮助',
    'chat.details': '详情',
    'chat.feedbackPrompt': '补充说明（可选）',
    'chat.feedbackSend': '提交',
    'chat.feedbackThanks': '感谢您的反馈',
    'chat.feedbackFailed': '反馈保存失败',
    'chat.refused': '您可阅读的文档中没有找到答案',
    'chat.refusedHint': '请换个说法，或请有更多部门权限的同事查询。',
    'chat.failed': '回答生成失败',
    'chat.failedHint': '语言模型没有响应，请稍后重试。',
    'chat.truncated': '此回答不完整',
    'chat.stopped': '已停止，回答不完整',
    'chat.error': '出错了',
    'chat.errorNoFinal': '连接在回答完成前中断。',
    'chat.errorRequest': '请求编号：{id}',
    'chat.conversationGone': '该对话已不存在，已开始新对话。',
    'chat.loadFailed': '无法加载该对话。',
    'chat.sources': '出处',
    'chat.open': '查看',
    'chat.unsupported': '该段落不支持此引用',
    'chat.page': '第 {n} 页',
    'details.k': '检索段落数 (k)',
    'details.status': '状态',
    'details.generator': '生成器',
    'details.retrieval': '检索耗时',
    'details.generation': '生成耗时',
    'details.bestScore': '最高向量相似度',
    'details.threshold': '阈值',
    'details.rewritten': '改写为',
    'details.reason': '原因',
    'details.warnings': '提示',
    'details.invalid': '已移除未提供出处的引用：{list}',
    'details.unsupportedList': '引用与段落不符：{list}',
    'details.uncited': '{n} 句没有引用',
    'details.ms': '{n} 毫秒',
    'section.close': '关闭',
    'section.loading': '加载中…',
    'section.dept': '部门',
    'lib.title': '文档库',
    'lib.subtitle': '问答所依据的文档。仅列出您有权阅读的部门。',
    'lib.drop': '将文件拖放到此处，或',
    'lib.browse': '选择文件',
    'lib.formats': 'Markdown、文本、PDF、Word、Excel、PowerPoint、HTML',
    'lib.folder': '所属部门文件夹',
    'lib.folderNone': '公开（不指定文件夹）',
    'lib.name': '文档',
    'lib.dept': '部门',
    'lib.chunks': '段落数',
    'lib.chunksUnit': '段',
    'lib.updated': '更新时间',
    'lib.actions': '操作',
    'lib.delete': '删除',
    'lib.deleteTitle': '删除文档？',
    'lib.deleteBody': '将从知识库中移除“{title}”，且无法恢复。',
    'lib.empty': '还没有文档，请在上方上传。',
    'lib.count': '共 {n} 个文档',
    'lib.uploading': '正在上传 {name}',
    'lib.queued': '等待建立索引',
    'lib.indexing': '正在建立索引 {done}/{total}',
    'lib.done': '已建立索引：新增 {added} 个，更新 {updated} 个',
    'lib.failed': '上传失败：{message}',
    'lib.deleted': '已删除“{title}”',
    'lib.loadFailed': '无法加载文档列表。',
    'common.cancel': '取消',
    'common.save': '保存',
    'common.delete': '删除',
    'common.never': '—',
  },
};

export const LANGUAGES = [['zh', '中文'], ['en', 'English']];
const KEY = 'openbook.lang';
let current = pick();

function pick() {
  const saved = localStorage.getItem(KEY);
  if (saved && STRINGS[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).toLowerCase().split('-')[0];
    if (STRINGS[base]) return base;
  }
  return 'en';
}

/** The current language code ({@code en} or {@code zh}). */
export function lang() {
  return current;
}

/** Switches the language, remembers the choice and re-labels the static page. */
export function setLang(code) {
  if (!STRINGS[code]) return;
  current = code;
  localStorage.setItem(KEY, code);
  applyStatic();
}

/** The string for {@code key} with each {name} replaced from {@code params}. */
export function t(key, params = {}) {
  const s = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Labels the static HTML: data-i18n (text), -placeholder, -aria (aria-label), -title. */
export function applyStatic(root = document) {
  document.documentElement.lang = current === 'zh' ? 'zh-CN' : 'en';
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll('[data-i18n-aria]')) el.setAttribute('aria-label', t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
}

/** A date-time in the interface language, e.g. "2026/11/30 16:00" or "Nov 30, 2026, 4:00 PM". */
export function formatTime(iso) {
  if (!iso) return t('common.never');
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return t('common.never');
  return new Intl.DateTimeFormat(current === 'zh' ? 'zh-CN' : 'en', {
    dateStyle: 'medium', timeStyle: 'short',
  }).format(d);
}
