// The endpoints dialog (see endpoints_dialog.h).
#include "ui/endpoints/endpoints_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "core/endpoints/worker_runner.h"
#include "core/net/http_client.h"
#include "core/net/keychain.h"
#include "core/net/proxy.h"
#include "engine/engine.h"

namespace ui {

EndpointListModel::EndpointListModel(core::EndpointProfileStore* store, QObject* parent)
    : QAbstractListModel(parent), store_(store) {}

int EndpointListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(store_->profiles.size());
}

QVariant EndpointListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const auto& p = store_->profiles[size_t(index.row())];
    if (role == Qt::DisplayRole)
        return QString::fromStdString(p.name) +
               (p.name == store_->active ? tr("  (active)") : QString());
    if (role == Qt::ToolTipRole) return QString::fromStdString(p.summary());
    if (role == Qt::FontRole && p.name == store_->active) {
        QFont f;
        f.setBold(true);
        return f;
    }
    return {};
}

void EndpointListModel::reset() {
    beginResetModel();
    endResetModel();
}
void EndpointListModel::changed(int row) {
    Q_EMIT dataChanged(index(row), index(row));
}

EndpointsDialog::EndpointsDialog(const core::EndpointProfileStore& store, QWidget* parent)
    : QDialog(parent),
      store_(store),
      model_(new EndpointListModel(&store_, this)),
      tester_(new core::WorkerRunner(this)) {
    setWindowTitle(tr("Endpoints"));
    auto* outer = new QVBoxLayout(this);
    auto* body = new QHBoxLayout;
    outer->addLayout(body, 1);
    body->addLayout(buildList(), 1);

    auto* right = new QVBoxLayout;
    auto* common = new QFormLayout;
    name_ = new QLineEdit(this);
    kind_ = new QComboBox(this);
    kind_->addItem(tr("Local engine"), int(core::EndpointKind::Local));
    kind_->addItem(tr("Server: detect from /health"), int(core::EndpointKind::Auto));
    kind_->addItem(tr("Server: dgem chat"), int(core::EndpointKind::DgemChat));
    kind_->addItem(tr("Server: System One"), int(core::EndpointKind::SystemOne));
    kind_->addItem(tr("Server: vLLM structured reads"), int(core::EndpointKind::Vllm));
    common->addRow(tr("&Name"), name_);
    common->addRow(tr("&Kind"), kind_);
    right->addLayout(common);

    pages_ = new QStackedWidget(this);
    pages_->addWidget(buildLocalPage());
    pages_->addWidget(buildRemotePage());
    right->addWidget(pages_);

    auto* test_row = new QHBoxLayout;
    test_ = new QPushButton(tr("&Test connection"), this);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("endpointStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    test_row->addWidget(test_);
    test_row->addWidget(status_, 1);
    right->addLayout(test_row);
    right->addStretch();
    body->addLayout(right, 2);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    outer->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        saveForm();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    connectForm();
    connect(test_, &QPushButton::clicked, this, &EndpointsDialog::testConnection);
    connect(save_token_, &QPushButton::clicked, this, [this] { saveSecret(false); });
    connect(save_server_key_, &QPushButton::clicked, this, [this] { saveSecret(true); });

    const auto* active = store_.activeProfile();
    int row = 0;
    for (size_t i = 0; i < store_.profiles.size(); ++i)
        if (active && store_.profiles[i].name == active->name) row = int(i);
    select(row);
    resize(760, 440);
}

QVBoxLayout* EndpointsDialog::buildList() {
    auto* left = new QVBoxLayout;
    list_ = new QListView(this);
    list_->setModel(model_);
    list_->setObjectName(QStringLiteral("endpointList"));
    left->addWidget(list_, 1);
    auto* add_local = new QPushButton(tr("Add &local"), this);
    auto* add_remote = new QPushButton(tr("Add &server"), this);
    auto* remove = new QPushButton(tr("Re&move"), this);
    auto* activate = new QPushButton(tr("Use this &one"), this);
    auto* row1 = new QHBoxLayout;
    row1->addWidget(add_local);
    row1->addWidget(add_remote);
    auto* row2 = new QHBoxLayout;
    row2->addWidget(remove);
    row2->addWidget(activate);
    left->addLayout(row1);
    left->addLayout(row2);

    connect(add_local, &QPushButton::clicked, this, [this] {
        core::EndpointProfile p;
        p.name = store_.uniqueName(tr("Local engine").toStdString());
        p.kind = core::EndpointKind::Local;
        store_.profiles.push_back(p);
        model_->reset();
        select(int(store_.profiles.size()) - 1);
    });
    connect(add_remote, &QPushButton::clicked, this, [this] {
        core::EndpointProfile p;
        p.name = store_.uniqueName(tr("Server").toStdString());
        p.kind = core::EndpointKind::Auto;
        p.url = core::kDefaultServerUrl;
        store_.profiles.push_back(p);
        model_->reset();
        select(int(store_.profiles.size()) - 1);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = currentRow();
        if (row < 0 || store_.profiles.size() <= 1) return;
        store_.profiles.erase(store_.profiles.begin() + row);
        current_row_ = -1;
        if (!store_.find(store_.active)) store_.active = store_.profiles.front().name;
        model_->reset();
        select(std::min(row, int(store_.profiles.size()) - 1));
    });
    connect(activate, &QPushButton::clicked, this, [this] {
        saveForm();
        const int row = currentRow();
        if (row < 0) return;
        store_.active = store_.profiles[size_t(row)].name;
        model_->reset();
        select(row);
    });
    return left;
}

QWidget* EndpointsDialog::buildLocalPage() {
    auto* local_page = new QWidget(pages_);
    auto* local_form = new QFormLayout(local_page);
    model_dir_ = new QLineEdit(local_page);
    auto* browse = new QPushButton(tr("&Browse…"), local_page);
    auto* dir_row = new QHBoxLayout;
    dir_row->addWidget(model_dir_, 1);
    dir_row->addWidget(browse);
    device_ = new QComboBox(local_page);
    device_->addItem(tr("Automatic"), QStringLiteral("auto"));
    device_->addItem(tr("CPU"), QStringLiteral("cpu"));
    device_->addItem(engine::cuda_available() ? tr("CUDA (GPU)") : tr("CUDA (no GPU found)"),
                     QStringLiteral("cuda"));
    local_form->addRow(tr("Model &folder"), dir_row);
    local_form->addRow(tr("&Device"), device_);

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir =
            QFileDialog::getExistingDirectory(this, tr("Model folder"), model_dir_->text());
        if (!dir.isEmpty()) {
            model_dir_->setText(dir);
            saveForm();
        }
    });
    return local_page;
}

QWidget* EndpointsDialog::buildRemotePage() {
    auto* remote_page = new QWidget(pages_);
    auto* remote_form = new QFormLayout(remote_page);
    url_ = new QLineEdit(remote_page);
    url_->setPlaceholderText(QString::fromLatin1(core::kDefaultServerUrl));
    url_->setToolTip(
        tr("One URL, or several separated by commas: decisions go to the first "
           "server that is up and fail over to the next; bench workers spread over "
           "all of them."));
    model_name_ = new QLineEdit(remote_page);
    model_name_->setPlaceholderText(tr("the server's default"));
    timeout_ = new QDoubleSpinBox(remote_page);
    timeout_->setRange(1, 3600);
    timeout_->setSuffix(tr(" s"));
    auth_ = new QComboBox(remote_page);
    auth_->addItem(tr("None"), int(core::AuthMode::None));
    auth_->addItem(tr("Bearer token (keychain)"), int(core::AuthMode::Token));
    auth_->addItem(tr("gcloud identity token (Cloud Run)"), int(core::AuthMode::GcloudIdentity));
    auth_->addItem(tr("gcloud access token (Vertex)"), int(core::AuthMode::GcloudAccess));
    token_ = new QLineEdit(remote_page);
    token_->setEchoMode(QLineEdit::Password);
    token_->setPlaceholderText(tr("paste to store it in the keychain"));
    save_token_ = new QPushButton(tr("Save &token"), remote_page);
    auto* token_row = new QHBoxLayout;
    token_row->addWidget(token_, 1);
    token_row->addWidget(save_token_);
    server_key_ = new QCheckBox(tr("Send a server &key (X-DGem-Key)"), remote_page);
    server_key_value_ = new QLineEdit(remote_page);
    server_key_value_->setEchoMode(QLineEdit::Password);
    save_server_key_ = new QPushButton(tr("Save &key"), remote_page);
    auto* key_row = new QHBoxLayout;
    key_row->addWidget(server_key_value_, 1);
    key_row->addWidget(save_server_key_);
    tokenizer_dir_ = new QLineEdit(remote_page);
    tokenizer_dir_->setPlaceholderText(tr("folder with tokenizer.json (vLLM structured reads)"));
    remote_form->addRow(tr("&URL"), url_);
    remote_form->addRow(tr("M&odel"), model_name_);
    remote_form->addRow(tr("T&imeout"), timeout_);
    remote_form->addRow(tr("&Auth"), auth_);
    remote_form->addRow(tr("Token"), token_row);
    remote_form->addRow(server_key_);
    remote_form->addRow(tr("Server key"), key_row);
    remote_form->addRow(tr("Tokeni&zer"), tokenizer_dir_);
    addNetworkRows(remote_page, remote_form);
    return remote_page;
}

// A CA file, a client certificate and key, a proxy and its password (keychain).
void EndpointsDialog::addNetworkRows(QWidget* page, QFormLayout* form) {
    ca_file_ = new QLineEdit(page);
    ca_file_->setPlaceholderText(tr("PEM file of a private CA (besides the system store)"));
    client_cert_ = new QLineEdit(page);
    client_cert_->setPlaceholderText(tr("PEM certificate for mutual TLS"));
    client_key_ = new QLineEdit(page);
    client_key_->setPlaceholderText(tr("its private key (PEM, unencrypted)"));
    proxy_ = new QLineEdit(page);
    proxy_->setPlaceholderText(
        tr("http://user@host:port; empty: HTTPS_PROXY/NO_PROXY; direct: none"));
    proxy_password_ = new QLineEdit(page);
    proxy_password_->setEchoMode(QLineEdit::Password);
    proxy_password_->setPlaceholderText(tr("the proxy user's password, kept in the keychain"));
    save_proxy_password_ = new QPushButton(tr("Save pass&word"), page);
    connect(save_proxy_password_, &QPushButton::clicked, this, &EndpointsDialog::saveProxyPassword);
    connect(proxy_, &QLineEdit::textChanged, this, &EndpointsDialog::updateVisibility);
    auto* password_row = new QHBoxLayout;
    password_row->addWidget(proxy_password_, 1);
    password_row->addWidget(save_proxy_password_);
    form->addRow(tr("CA &file"), ca_file_);
    form->addRow(tr("Client &certificate"), client_cert_);
    form->addRow(tr("Client &key"), client_key_);
    form->addRow(tr("&Proxy"), proxy_);
    form->addRow(tr("Proxy password"), password_row);
}

void EndpointsDialog::connectForm() {
    connect(list_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                saveForm();  // into the row the form showed until now
                current_row_ = current.isValid() ? current.row() : -1;
                loadForm();
            });
    for (QLineEdit* e : {name_, model_dir_, url_, model_name_, tokenizer_dir_, ca_file_,
                         client_cert_, client_key_, proxy_})
        connect(e, &QLineEdit::editingFinished, this, &EndpointsDialog::saveForm);
    connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
        saveForm();
        updateVisibility();
    });
    for (QComboBox* c : {device_, auth_})
        connect(c, &QComboBox::currentIndexChanged, this, [this] {
            saveForm();
            updateVisibility();
        });
    connect(timeout_, &QDoubleSpinBox::valueChanged, this, &EndpointsDialog::saveForm);
    connect(server_key_, &QCheckBox::toggled, this, [this] {
        saveForm();
        updateVisibility();
    });
}

EndpointsDialog::~EndpointsDialog() = default;  // the tester cancels and waits for its worker

int EndpointsDialog::currentRow() const {
    return current_row_ >= 0 && current_row_ < int(store_.profiles.size()) ? current_row_ : -1;
}

void EndpointsDialog::select(int row) {
    list_->setCurrentIndex(model_->index(row));
    if (current_row_ != row) {
        current_row_ = row;
        loadForm();
    }
}

QString EndpointsDialog::statusText() const {
    return status_->text();
}

void EndpointsDialog::loadForm() {
    const int row = currentRow();
    if (row < 0) return;
    loading_ = true;
    const auto& p = store_.profiles[size_t(row)];
    name_->setText(QString::fromStdString(p.name));
    kind_->setCurrentIndex(kind_->findData(int(p.kind)));
    model_dir_->setText(QString::fromStdString(p.model_dir));
    device_->setCurrentIndex(std::max(0, device_->findData(QString::fromStdString(p.device))));
    url_->setText(QString::fromStdString(p.url));
    model_name_->setText(QString::fromStdString(p.model));
    timeout_->setValue(p.timeout_s);
    auth_->setCurrentIndex(auth_->findData(int(p.auth)));
    server_key_->setChecked(p.server_key);
    tokenizer_dir_->setText(QString::fromStdString(p.tokenizer_dir));
    ca_file_->setText(QString::fromStdString(p.ca_file));
    client_cert_->setText(QString::fromStdString(p.client_cert_file));
    client_key_->setText(QString::fromStdString(p.client_key_file));
    proxy_->setText(QString::fromStdString(p.proxy));
    proxy_password_->clear();
    token_->clear();
    server_key_value_->clear();
    status_->clear();
    loading_ = false;
    updateVisibility();
}

void EndpointsDialog::saveForm() {
    const int row = currentRow();
    if (loading_ || row < 0) return;
    auto& p = store_.profiles[size_t(row)];
    const std::string new_name = name_->text().trimmed().toStdString();
    if (!new_name.empty() && new_name != p.name && !store_.find(new_name)) {
        if (store_.active == p.name) store_.active = new_name;
        p.name = new_name;
    }
    p.kind = core::EndpointKind(kind_->currentData().toInt());
    p.model_dir = model_dir_->text().trimmed().toStdString();
    p.device = device_->currentData().toString().toStdString();
    p.url = url_->text().trimmed().toStdString();
    p.model = model_name_->text().trimmed().toStdString();
    p.timeout_s = timeout_->value();
    p.auth = core::AuthMode(auth_->currentData().toInt());
    p.server_key = server_key_->isChecked();
    p.tokenizer_dir = tokenizer_dir_->text().trimmed().toStdString();
    p.ca_file = ca_file_->text().trimmed().toStdString();
    p.client_cert_file = client_cert_->text().trimmed().toStdString();
    p.client_key_file = client_key_->text().trimmed().toStdString();
    p.proxy = proxy_->text().trimmed().toStdString();
    model_->changed(row);
}

void EndpointsDialog::updateVisibility() {
    const auto kind = core::EndpointKind(kind_->currentData().toInt());
    pages_->setCurrentIndex(kind == core::EndpointKind::Local ? 0 : 1);
    const bool token = core::AuthMode(auth_->currentData().toInt()) == core::AuthMode::Token;
    token_->setEnabled(token);
    save_token_->setEnabled(token);
    server_key_value_->setEnabled(server_key_->isChecked());
    save_server_key_->setEnabled(server_key_->isChecked());
    tokenizer_dir_->setEnabled(kind == core::EndpointKind::Vllm ||
                               kind == core::EndpointKind::Auto);
    // A password only for a proxy that names its user.
    const auto proxy = core::parse_proxy_url(proxy_->text().trimmed().toStdString(), "proxy");
    const bool proxy_user = !proxy_->text().trimmed().isEmpty() && proxy && !proxy->user.empty();
    proxy_password_->setEnabled(proxy_user);
    save_proxy_password_->setEnabled(proxy_user);
}

void EndpointsDialog::saveSecret(bool server_key) {
    saveForm();
    const int row = currentRow();
    if (row < 0) return;
    const auto& p = store_.profiles[size_t(row)];
    QLineEdit* field = server_key ? server_key_value_ : token_;
    const std::string value = field->text().toStdString();
    if (p.url.empty()) {
        status_->setText(tr("⚠ Set the URL first: secrets are stored per URL."));
        return;
    }
    const std::string key =
        server_key ? core::server_key_keychain_key(p) : core::token_keychain_key(p);
    auto written = value.empty() ? core::keychain_delete(key) : core::keychain_write(key, value);
    field->clear();
    if (!written) {
        status_->setText(tr("⚠ Keychain: %1").arg(QString::fromStdString(written.error().message)));
        return;
    }
    status_->setText(value.empty() ? tr("Removed from the keychain.")
                                   : tr("Saved in the system keychain (never in settings)."));
}

void EndpointsDialog::saveProxyPassword() {
    saveForm();
    const int row = currentRow();
    if (row < 0) return;
    const auto& p = store_.profiles[size_t(row)];
    auto proxy = core::parse_proxy_url(p.proxy, "proxy");
    if (p.proxy.empty() || !proxy || proxy->user.empty()) {
        status_->setText(tr("⚠ Set a proxy with a user first (http://user@host:port)."));
        return;
    }
    const std::string value = proxy_password_->text().toStdString();
    const std::string key = core::proxy_keychain_key(*proxy);
    auto written = value.empty() ? core::keychain_delete(key) : core::keychain_write(key, value);
    proxy_password_->clear();
    status_->setText(!written
                         ? tr("⚠ Keychain: %1").arg(QString::fromStdString(written.error().message))
                     : value.empty() ? tr("Removed from the keychain.")
                                     : tr("Saved in the system keychain (never in settings)."));
}

namespace {

// What the status label says of a profile's backend and its /health (run on a worker thread).
QString connectionReport(const core::EndpointProfile& profile, const core::ProfileSecrets& secrets,
                         const core::CancelToken& cancel) {
    auto backend = core::make_profile_backend(profile, secrets, cancel);
    if (!backend) return QStringLiteral("⚠ ") + QString::fromStdString(backend.error().message);
    auto health = (*backend)->health(cancel);
    if (!health) return QStringLiteral("⚠ ") + QString::fromStdString(health.error().message);
    const auto& h = *health;
    QString text = EndpointsDialog::tr("✔ Ready");
    if (!h.ready) text = EndpointsDialog::tr("… Reachable, not ready yet");
    QStringList parts;
    if (!h.kind.empty())
        parts << EndpointsDialog::tr("protocol %1").arg(QString::fromStdString(h.kind));
    if (!h.server.empty())
        parts << QString::fromStdString(h.server + (h.version.empty() ? "" : " " + h.version));
    if (!h.model.empty())
        parts << EndpointsDialog::tr("model %1").arg(QString::fromStdString(h.model));
    if (!h.device.empty()) parts << QString::fromStdString(h.device);
    if (!parts.isEmpty()) text += QStringLiteral(": ") + parts.join(QStringLiteral(", "));
    return text;
}

}  // namespace

bool EndpointsDialog::testRunning() const {
    return tester_->busy();
}

void EndpointsDialog::testConnection() {
    saveForm();
    const int row = currentRow();
    if (row < 0 || tester_->busy()) return;
    const core::EndpointProfile profile = store_.profiles[size_t(row)];
    // Secrets are read here (the keychain runs on this thread's event loop); the network and
    // the model load run on a worker.
    auto secrets = core::read_profile_secrets(profile, core::process_environment());
    if (!secrets) {
        status_->setText(QStringLiteral("⚠ ") + QString::fromStdString(secrets.error().message));
        return;
    }
    status_->setText(profile.remote() ? tr("Connecting…") : tr("Loading the model…"));
    test_->setEnabled(false);
    tester_->start([this, profile, secrets = secrets.value()](const core::WorkerRunner::Job& job) {
        const QString text = connectionReport(profile, secrets, job.cancel());
        job.finish([this, text] {
            status_->setText(text);
            test_->setEnabled(true);
        });
    });
}

}  // namespace ui
